create table
    "public"."sensitive_data" (
        "id" uuid not null default gen_random_uuid (),
        "data" text not null default ''::text,
        "created_at" timestamp with time zone not null default now(),
        "owned_by_group" uuid not null
    );

alter table "public"."sensitive_data" enable row level security;

CREATE UNIQUE INDEX sensitive_data_pkey ON public.sensitive_data USING btree (id);

alter table "public"."sensitive_data"
add constraint "sensitive_data_pkey" PRIMARY KEY using index "sensitive_data_pkey";

grant delete on table "public"."sensitive_data" to "anon";

grant insert on table "public"."sensitive_data" to "anon";

grant references on table "public"."sensitive_data" to "anon";

grant
select
    on table "public"."sensitive_data" to "anon";

grant trigger on table "public"."sensitive_data" to "anon";

grant
truncate on table "public"."sensitive_data" to "anon";

grant
update on table "public"."sensitive_data" to "anon";

grant delete on table "public"."sensitive_data" to "authenticated";

grant insert on table "public"."sensitive_data" to "authenticated";

grant references on table "public"."sensitive_data" to "authenticated";

grant
select
    on table "public"."sensitive_data" to "authenticated";

grant trigger on table "public"."sensitive_data" to "authenticated";

grant
truncate on table "public"."sensitive_data" to "authenticated";

grant
update on table "public"."sensitive_data" to "authenticated";

grant delete on table "public"."sensitive_data" to "service_role";

grant insert on table "public"."sensitive_data" to "service_role";

grant references on table "public"."sensitive_data" to "service_role";

grant
select
    on table "public"."sensitive_data" to "service_role";

grant trigger on table "public"."sensitive_data" to "service_role";

grant
truncate on table "public"."sensitive_data" to "service_role";

grant
update on table "public"."sensitive_data" to "service_role";

-- Write policies are split per-command (INSERT/UPDATE/DELETE) instead of FOR ALL
-- so SELECT has exactly one permissive policy — "Allow group member to read".
-- This avoids the Supabase `multiple_permissive_policies` linter warning.

create policy "Has data write insert" on "sensitive_data" as permissive for insert
    to authenticated
    with check (rbac.has_permission (owned_by_group, 'data.write'::text));

create policy "Has data write update" on "sensitive_data" as permissive for update
    to authenticated
    using (rbac.has_permission (owned_by_group, 'data.write'::text))
    with check (rbac.has_permission (owned_by_group, 'data.write'::text));

create policy "Has data write delete" on "sensitive_data" as permissive for delete
    to authenticated
    using (rbac.has_permission (owned_by_group, 'data.write'::text));

create policy "Allow group member to read" on "sensitive_data" as permissive for
select
    to authenticated using (rbac.has_permission (owned_by_group, 'data.read'::text));
