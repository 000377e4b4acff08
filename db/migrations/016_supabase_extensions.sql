-- The extensions a Supabase project has installed from the start, besides
-- pgcrypto and uuid-ossp (001): pg_stat_statements in `extensions`, and
-- pg_graphql and Supabase Vault in their own schemas (stand-ins, see
-- db/stand-ins). Every `supabase db dump` and many migrations begin with
-- `create extension if not exists "pg_graphql" with schema "graphql"`,
-- `… "supabase_vault" with schema "vault"`, which on a project are no-ops and
-- here must be too; without `if not exists` they fail here as there. Projects
-- made before 2025 also had pgsodium installed in its schema: the schema is
-- made so that their dumps' `… "pgsodium" with schema "pgsodium"` loads (it
-- then installs the stand-in, which has no functions).

create extension if not exists pg_stat_statements with schema extensions;
create extension if not exists pg_graphql;
create extension if not exists supabase_vault;
create schema if not exists pgsodium;
