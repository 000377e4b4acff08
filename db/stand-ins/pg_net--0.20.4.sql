-- pg_net, as the local stack stands it in: the schema `net` with pg_net's
-- tables, types and function signatures, so that migrations which enable it
-- and triggers which call net.http_get / net.http_post / net.http_delete
-- run. A call queues its request in net.http_request_queue and returns the
-- request's id, as pg_net does, and raises a NOTICE saying so; nothing ever
-- sends it: there is no background worker, and no response ever arrives in
-- net._http_response. Collecting a response therefore answers what pg_net
-- answers for a request still queued, and waiting for one is an error rather
-- than a wait that never ends.

create schema if not exists net;

create domain net.http_method as text
  check (lower(value) in ('get', 'post', 'delete'));

create table net.http_request_queue (
  id bigserial,
  method net.http_method not null,
  url text not null,
  headers jsonb,
  body bytea,
  timeout_milliseconds int not null
);

create table net._http_response (
  id bigint,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out bool,
  error_msg text,
  created timestamptz not null default now()
);
create index on net._http_response (created);

create type net.request_status as enum ('PENDING', 'SUCCESS', 'ERROR');
create type net.http_response as (status_code integer, headers jsonb, body text);
create type net.http_response_result as (status net.request_status, message text, response net.http_response);

-- Percent-encodes every byte outside A-Z a-z 0-9 - . _ ~ (RFC 3986's unreserved set).
create function net._urlencode_string(string varchar) returns text
language sql immutable strict
as $$
  select coalesce(string_agg(
    case when b between 48 and 57 or b between 65 and 90 or b between 97 and 122 or b in (45, 46, 95, 126)
      then chr(b) else '%' || upper(lpad(to_hex(b), 2, '0')) end, '' order by i), '')
  from convert_to(string, 'UTF8') as bytes(raw),
    generate_series(0, octet_length(bytes.raw) - 1) as i,
    get_byte(bytes.raw, i) as b
$$;

create function net._encode_url_with_params_array(url text, params_array text[]) returns text
language sql immutable
as $$
  select case when coalesce(array_length(params_array, 1), 0) = 0 then url
    else url || case when url like '%?%' then '&' else '?' end || array_to_string(params_array, '&') end
$$;

-- Queues one request and says that it will not be sent; the id is the one
-- pg_net would have returned.
create function net._queue_request(method text, url text, params jsonb, headers jsonb, body bytea, timeout_milliseconds int)
returns bigint
language plpgsql
as $$
declare
  request_id bigint;
  full_url text;
begin
  select net._encode_url_with_params_array(url, coalesce(array_agg(net._urlencode_string(key) || '=' || net._urlencode_string(value)), '{}'))
  into full_url
  from jsonb_each_text(coalesce(params, '{}'::jsonb));
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values (method, full_url, headers, body, timeout_milliseconds)
  returning id into request_id;
  raise notice 'pg_net stand-in: request % (% %) is queued in net.http_request_queue and will not be sent: the local stack has no pg_net worker',
    request_id, method, full_url;
  return request_id;
end
$$;

create function net.http_get(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds int default 5000
) returns bigint
language sql
as $$
  select net._queue_request('GET', url, params, headers, null, timeout_milliseconds)
$$;

create function net.http_post(
  url text,
  body jsonb default '{}'::jsonb,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds int default 5000
) returns bigint
language plpgsql
as $$
declare
  content_type text;
begin
  select header.value into content_type
  from jsonb_each_text(coalesce(headers, '{}'::jsonb)) as header(name, value)
  where lower(header.name) = 'content-type'
  limit 1;
  if content_type is null then
    headers := coalesce(headers, '{}'::jsonb) || '{"Content-Type": "application/json"}'::jsonb;
  elsif content_type <> 'application/json' then
    raise exception 'Content-Type header must be "application/json"';
  end if;
  return net._queue_request('POST', url, params, headers, convert_to(body::text, 'UTF8'), timeout_milliseconds);
end
$$;

create function net.http_delete(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds int default 5000,
  body jsonb default null
) returns bigint
language sql
as $$
  select net._queue_request('DELETE', url, params, headers, convert_to(body::text, 'UTF8'), timeout_milliseconds)
$$;

-- pg_net answers this for a request that has no response yet (it cannot tell
-- a queued request from an unknown one); here no request ever gets one.
create function net._http_collect_response(request_id bigint, async bool default true)
returns net.http_response_result
language plpgsql
as $$
begin
  if not async then
    perform net._await_response(request_id);
  end if;
  return ('ERROR', 'request matching request_id not found', null)::net.http_response_result;
end
$$;

create function net.http_collect_response(request_id bigint, async bool default true)
returns net.http_response_result
language plpgsql
as $$
begin
  raise notice 'The net.http_collect_response function is deprecated.';
  return net._http_collect_response(request_id, async);
end
$$;

create function net._await_response(request_id bigint) returns bool
language plpgsql
as $$
begin
  raise exception 'pg_net stand-in: request % will never get a response', request_id
    using errcode = '0A000',
      detail = 'The local stack''s pg_net queues requests and sends none, so waiting for a response would never end.';
end
$$;

create function net.check_worker_is_up() returns void
language plpgsql
as $$
begin
  raise exception 'the pg_net background worker is not up'
    using detail = 'The local stack''s pg_net is a stand-in without a worker: it queues requests and sends none.';
end
$$;

create function net.wait_until_running() returns void
language sql
as $$
  select net.check_worker_is_up()
$$;

create function net.wake() returns void
language sql
as $$
  select
$$;

create function net.worker_restart() returns bool
language sql
as $$
  select false
$$;

grant usage on schema net to public;
grant all on all sequences in schema net to public;
grant all on all tables in schema net to public;
