-- http (pgsql-http), as the local stack stands it in: its domains, types and
-- function signatures, in the schema the extension is created in, so that
-- migrations which enable it and functions which call it load. The helpers
-- that only compute (http_header, http_headers, urlencode, text_to_bytea,
-- bytea_to_text, the curl options list) work. A request does not: http() and
-- every http_get / http_post / … that goes through it raise an error, as the
-- real extension does when no server answers, because an app reads the
-- response of a synchronous request and no response made up here would be
-- true. Nothing is sent.

create domain @extschema@.http_method as text;
create domain @extschema@.content_type as text check (value ~ '^\S+\/\S+');

create type @extschema@.http_header as (field varchar, value varchar);
create type @extschema@.http_response as (status integer, content_type varchar, headers @extschema@.http_header[], content varchar);
create type @extschema@.http_request as (method @extschema@.http_method, uri varchar, headers @extschema@.http_header[], content_type varchar, content varchar);

create function @extschema@.http(request @extschema@.http_request) returns @extschema@.http_response
language plpgsql
as $$
begin
  raise exception 'http stand-in: % % was not sent: the local stack makes no HTTP requests', upper(request.method), request.uri
    using errcode = '0A000',
      hint = 'this needs a request to another service, which the local stack does not make (its http extension only lets migrations load): tell the user it cannot be done here; against a Supabase project it runs';
end
$$;

create function @extschema@.http_get(uri varchar) returns @extschema@.http_response
language sql
as $$ select @extschema@.http(('GET', uri, null, null, null)::@extschema@.http_request) $$;

create function @extschema@.http_post(uri varchar, content varchar, content_type varchar) returns @extschema@.http_response
language sql
as $$ select @extschema@.http(('POST', uri, null, content_type, content)::@extschema@.http_request) $$;

create function @extschema@.http_put(uri varchar, content varchar, content_type varchar) returns @extschema@.http_response
language sql
as $$ select @extschema@.http(('PUT', uri, null, content_type, content)::@extschema@.http_request) $$;

create function @extschema@.http_patch(uri varchar, content varchar, content_type varchar) returns @extschema@.http_response
language sql
as $$ select @extschema@.http(('PATCH', uri, null, content_type, content)::@extschema@.http_request) $$;

create function @extschema@.http_delete(uri varchar) returns @extschema@.http_response
language sql
as $$ select @extschema@.http(('DELETE', uri, null, null, null)::@extschema@.http_request) $$;

create function @extschema@.http_delete(uri varchar, content varchar, content_type varchar) returns @extschema@.http_response
language sql
as $$ select @extschema@.http(('DELETE', uri, null, content_type, content)::@extschema@.http_request) $$;

create function @extschema@.http_head(uri varchar) returns @extschema@.http_response
language sql
as $$ select @extschema@.http(('HEAD', uri, null, null, null)::@extschema@.http_request) $$;

create function @extschema@.http_header(field varchar, value varchar) returns @extschema@.http_header
language sql
as $$ select field, value $$;

create function @extschema@.http_headers(variadic args text[]) returns @extschema@.http_header[]
language plpgsql immutable strict
as $$
begin
  if coalesce(array_length(args, 1), 0) % 2 <> 0 then
    raise exception 'Arguments must be provided in key-value pairs';
  end if;
  return array(
    select (args[i], args[i + 1])::@extschema@.http_header
    from generate_series(1, coalesce(array_length(args, 1), 0), 2) as i
    order by i);
end
$$;

-- Percent-encodes every byte outside A-Z a-z 0-9 - . _ ~ (what curl_easy_escape leaves).
create function @extschema@.urlencode(string bytea) returns text
language sql immutable strict
as $$
  select coalesce(string_agg(
    case when b between 48 and 57 or b between 65 and 90 or b between 97 and 122 or b in (45, 46, 95, 126)
      then chr(b) else '%' || upper(lpad(to_hex(b), 2, '0')) end, '' order by i), '')
  from generate_series(0, octet_length(string) - 1) as i, get_byte(string, i) as b
$$;

create function @extschema@.urlencode(string varchar) returns text
language sql immutable strict
as $$ select @extschema@.urlencode(convert_to(string, 'UTF8')) $$;

-- key=value pairs joined with '&', each side encoded.
create function @extschema@.urlencode(data jsonb) returns text
language sql immutable strict
as $$
  select coalesce(string_agg(@extschema@.urlencode(key::varchar) || '=' || @extschema@.urlencode(value::varchar), '&'), '')
  from jsonb_each_text(data)
$$;

create function @extschema@.text_to_bytea(data text) returns bytea
language sql immutable strict
as $$ select convert_to(data, 'UTF8') $$;

create function @extschema@.bytea_to_text(data bytea) returns text
language sql immutable strict
as $$ select convert_from(data, 'UTF8') $$;

-- Curl options are kept for the session, as the real extension keeps them,
-- and listed back; no request ever uses them.
create function @extschema@.http_set_curlopt(curlopt varchar, value varchar) returns boolean
language sql
as $$
  select set_config('alfred_stack.http_curlopts',
    (coalesce(nullif(current_setting('alfred_stack.http_curlopts', true), '')::jsonb, '{}'::jsonb) || jsonb_build_object(upper(curlopt), value))::text,
    false) is not null
$$;

create function @extschema@.http_reset_curlopt() returns boolean
language sql
as $$ select set_config('alfred_stack.http_curlopts', '{}', false) is not null $$;

create function @extschema@.http_list_curlopt() returns table (curlopt text, value text)
language sql
as $$
  select key, value
  from jsonb_each_text(coalesce(nullif(current_setting('alfred_stack.http_curlopts', true), '')::jsonb, '{}'::jsonb))
  order by key
$$;
