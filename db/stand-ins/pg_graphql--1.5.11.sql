-- pg_graphql, as the local stack stands it in: the schema `graphql` with
-- graphql.resolve and the helpers migrations call, so that a migration (or a
-- `supabase db dump`) which enables pg_graphql loads. The local stack serves
-- no GraphQL: resolve answers every query with a GraphQL error, in the shape
-- pg_graphql gives its own errors ({ data: null, errors: [{ message }] }),
-- never with data.

create function graphql.resolve(
  "query" text,
  "variables" jsonb default '{}',
  "operationName" text default null,
  "extensions" jsonb default null
) returns jsonb
language sql
as $$
  select jsonb_build_object('data', null, 'errors', jsonb_build_array(jsonb_build_object(
    'message', 'pg_graphql stand-in: the local stack does not serve GraphQL; use its REST API (PostgREST) or a Supabase project')))
$$;

-- '@graphql({"totalCount": {"enabled": true}})' in a comment → that object; {} without one.
create function graphql.comment_directive(comment_ text) returns jsonb
language sql immutable
as $$
  select coalesce((regexp_match(comment_, '@graphql\((.+)\)'))[1]::jsonb, '{}'::jsonb)
$$;

create function graphql.exception(message text) returns text
language plpgsql
as $$
begin
  raise exception using errcode = '22000', message = message;
end
$$;

grant usage on schema graphql to public;
