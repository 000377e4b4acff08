-- pgjwt for the local stack, written here in SQL on pgcrypto's hmac(): the
-- functions and signatures of pgjwt 0.2.0 (sign, verify, url_encode,
-- url_decode, algorithm_sign, try_cast_double) in the schema the extension
-- is created in. It works: tokens are signed with HS256, HS384 or HS512, and
-- verify checks the signature and the nbf/exp window.

create function @extschema@.url_encode(data bytea) returns text
language sql immutable
as $$ select translate(rtrim(encode(data, 'base64'), '='), E'+/\n', '-_') $$;

create function @extschema@.url_decode(data text) returns bytea
language sql immutable
as $$
  select decode(padded || repeat('=', (4 - length(padded) % 4) % 4), 'base64')
  from translate(data, '-_', '+/') as padded
$$;

create function @extschema@.algorithm_sign(signables text, secret text, algorithm text) returns text
language sql immutable
as $$
  select @extschema@.url_encode(@extschema:pgcrypto@.hmac(signables, secret, case algorithm
    when 'HS256' then 'sha256' when 'HS384' then 'sha384' when 'HS512' then 'sha512' else '' end))
$$;

create function @extschema@.sign(payload json, secret text, algorithm text default 'HS256') returns text
language sql immutable
as $$
  select signables || '.' || @extschema@.algorithm_sign(signables, secret, algorithm)
  from (
    select @extschema@.url_encode(convert_to(json_build_object('alg', algorithm, 'typ', 'JWT')::text, 'utf8'))
      || '.' || @extschema@.url_encode(convert_to(payload::text, 'utf8')) as signables
  ) as parts
$$;

create function @extschema@.try_cast_double(inp text) returns double precision
language plpgsql immutable
as $$
begin
  return inp::double precision;
exception when others then
  return null;
end
$$;

-- valid: the signature matches and now() is within [nbf, exp) when they are given.
create function @extschema@.verify(token text, secret text, algorithm text default 'HS256')
returns table (header json, payload json, valid boolean)
language sql stable
as $$
  select
    convert_from(@extschema@.url_decode(part[1]), 'utf8')::json,
    convert_from(@extschema@.url_decode(part[2]), 'utf8')::json,
    part[3] = @extschema@.algorithm_sign(part[1] || '.' || part[2], secret, algorithm)
      and coalesce(to_timestamp(@extschema@.try_cast_double(convert_from(@extschema@.url_decode(part[2]), 'utf8')::json ->> 'nbf')) <= now(), true)
      and coalesce(now() < to_timestamp(@extschema@.try_cast_double(convert_from(@extschema@.url_decode(part[2]), 'utf8')::json ->> 'exp')), true)
  from regexp_split_to_array(token, '\.') as part
$$;
