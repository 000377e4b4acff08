-- pg_tle (Trusted Language Extensions), as the local stack stands it in: the
-- schema `pgtle` and the functions database.dev's installer and migrations
-- call, so that a migration which enables pg_tle loads. Installing an
-- extension through it is refused with an error (nothing is installed, and
-- a later CREATE EXTENSION of it would fail anyway); the list of installed
-- ones is empty.

create schema if not exists pgtle;

create function pgtle._not_here(what text) returns void
language plpgsql
as $$
begin
  raise exception 'pg_tle stand-in: % is not possible on the local stack', what
    using errcode = '0A000',
      hint = 'The local stack has a stand-in for pg_tle, so that migrations enabling it load; install the extension''s SQL as a migration instead.';
end
$$;

create function pgtle.install_extension(name text, version text, description text, ext text, requires text[] default null)
returns boolean
language plpgsql
as $$
begin
  perform pgtle._not_here(format('installing the trusted-language extension %s %s', name, version));
  return false;
end
$$;

create function pgtle.install_extension_version_sql(name text, version text, ext text)
returns boolean
language plpgsql
as $$
begin
  perform pgtle._not_here(format('installing version %s of the trusted-language extension %s', version, name));
  return false;
end
$$;

create function pgtle.install_update_path(name text, fromvers text, tovers text, ext text)
returns boolean
language plpgsql
as $$
begin
  perform pgtle._not_here(format('installing an update path of the trusted-language extension %s', name));
  return false;
end
$$;

create function pgtle.set_default_version(name text, version text)
returns boolean
language plpgsql
as $$
begin
  perform pgtle._not_here(format('setting the default version of the trusted-language extension %s', name));
  return false;
end
$$;

create function pgtle.uninstall_extension(extname text)
returns boolean
language plpgsql
as $$
begin
  perform pgtle._not_here(format('uninstalling the trusted-language extension %s', extname));
  return false;
end
$$;

create function pgtle.available_extensions()
returns table (name text, default_version text, comment text)
language sql
as $$ select null::text, null::text, null::text where false $$;

create function pgtle.available_extension_versions()
returns table (name text, version text, superuser boolean, trusted boolean, relocatable boolean, schema text, requires text[], comment text)
language sql
as $$ select null::text, null::text, null::boolean, null::boolean, null::boolean, null::text, null::text[], null::text where false $$;

grant usage on schema pgtle to public;
