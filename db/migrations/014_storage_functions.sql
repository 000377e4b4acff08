-- The functions of Supabase Storage's schema that apps' storage policies
-- call: `(storage.foldername(name))[1] = auth.uid()::text`,
-- `storage.extension(name) = 'png'`, `storage.filename(name)`, and the
-- operation helpers of operation-aware policies. Written for the local stack
-- with the behaviour Storage gives them (paths split at '/'; the extension is
-- what follows the last '.' of the file name, the whole name when it has
-- none); the Storage API's own functions (search, list_objects_with_delimiter,
-- can_insert_object, the prefix triggers) are left out, since there is no
-- Storage API here to call them. Every role may execute them (PostgreSQL's
-- default for a new function), as on Supabase.

-- 'avatars/ada/face.png' → {avatars,ada}; a name without '/' → {}.
create or replace function storage.foldername(name text) returns text[]
language sql immutable
as $$
  select parts[1:array_length(parts, 1) - 1] from string_to_array(name, '/') as parts
$$;

-- 'avatars/ada/face.png' → 'face.png'.
create or replace function storage.filename(name text) returns text
language sql immutable
as $$
  select parts[array_length(parts, 1)] from string_to_array(name, '/') as parts
$$;

-- 'avatars/ada/face.tar.gz' → 'gz'; 'avatars/ada/README' → 'README'.
create or replace function storage.extension(name text) returns text
language sql immutable
as $$
  select split_part(parts[array_length(parts, 1)], '.', -1) from string_to_array(name, '/') as parts
$$;

-- The Storage API sets storage.operation (e.g. 'storage.object.upload') for
-- the transaction of each request; nothing sets it on the local stack, so
-- these read null and false, as they would for SQL run outside the API.
create or replace function storage.operation() returns text
language sql stable
as $$
  select current_setting('storage.operation', true)
$$;

-- Whether the request's operation is `expected_operation`, with or without
-- the 'storage.' prefix on either side; false for an empty expectation.
create or replace function storage.allow_only_operation(expected_operation text) returns boolean
language sql stable
as $$
  select coalesce(nullif(expected_operation, '') is not null
    and regexp_replace(storage.operation(), '^storage\.', '') = regexp_replace(expected_operation, '^storage\.', ''), false)
$$;

create or replace function storage.allow_any_operation(expected_operations text[]) returns boolean
language sql stable
as $$
  select exists (
    select from unnest(expected_operations) as expected
    where storage.allow_only_operation(expected)
  )
$$;

-- Bytes per bucket, from the objects' metadata (as the Storage API records it).
create or replace function storage.get_size_by_bucket() returns table (size bigint, bucket_id text)
language sql stable
as $$
  select sum((o.metadata ->> 'size')::bigint)::bigint, o.bucket_id
  from storage.objects as o
  group by o.bucket_id
$$;
