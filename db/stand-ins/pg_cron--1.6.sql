-- pg_cron, as the local stack stands it in: the schema `cron` with pg_cron's
-- tables and function signatures, so that migrations which enable it and
-- schedule jobs (`select cron.schedule('nightly', '0 3 * * *', $$…$$)`) run.
-- A job is recorded in cron.job under the id pg_cron would give it, named
-- jobs are replaced by name, and a NOTICE says it will never run: there is no
-- scheduler, so cron.job_run_details stays empty.

create schema if not exists cron;

create sequence cron.jobid_seq;
create table cron.job (
  jobid bigint primary key default nextval('cron.jobid_seq'),
  schedule text not null,
  command text not null,
  nodename text not null default 'localhost',
  nodeport int not null default coalesce(inet_server_port(), 5432),
  database text not null default current_database(),
  username text not null default current_user,
  active boolean not null default true,
  jobname text
);
alter table cron.job add constraint jobname_username_uniq unique (jobname, username);
grant select on cron.job to public;
alter table cron.job enable row level security;
create policy cron_job_policy on cron.job using (username = current_user);

create sequence cron.runid_seq;
create table cron.job_run_details (
  jobid bigint,
  runid bigint primary key default nextval('cron.runid_seq'),
  job_pid integer,
  database text,
  username text,
  command text,
  status text,
  return_message text,
  start_time timestamptz,
  end_time timestamptz
);
grant select, delete on cron.job_run_details to public;
alter table cron.job_run_details enable row level security;
create policy cron_job_run_details_policy on cron.job_run_details using (username = current_user);
grant select on sequence cron.jobid_seq, cron.runid_seq to public;

-- pg_cron's schedules: five cron fields, '@daily' and the like, or 'N seconds'.
create function cron._check_schedule(schedule text) returns void
language plpgsql immutable
as $$
begin
  if schedule is null or not (
    schedule ~ '^\s*\S+(\s+\S+){4}\s*$'
    or schedule ~* '^\s*@(yearly|annually|monthly|weekly|daily|midnight|hourly|reboot)\s*$'
    or schedule ~* '^\s*[1-5]?[0-9]\s+seconds?\s*$') then
    raise exception 'invalid schedule: %', schedule
      using hint = 'Use cron syntax (minute hour day month weekday), @daily and the like, or "N seconds".';
  end if;
end
$$;

create function cron._record_job(job_name text, schedule text, command text, database text, username text, active boolean)
returns bigint
language plpgsql
as $$
declare
  job_id bigint;
begin
  perform cron._check_schedule(schedule);
  if job_name is not null then
    update cron.job as j
    set schedule = _record_job.schedule, command = _record_job.command, database = _record_job.database, active = _record_job.active
    where j.jobname = job_name and j.username = _record_job.username
    returning j.jobid into job_id;
  end if;
  if job_id is null then
    insert into cron.job (jobname, schedule, command, database, username, active)
    values (job_name, schedule, command, database, username, active)
    returning jobid into job_id;
  end if;
  raise notice 'pg_cron stand-in: job % (%) is recorded in cron.job and will never run: the local stack has no scheduler',
    job_id, coalesce(job_name, schedule);
  return job_id;
end
$$;

create function cron.schedule(schedule text, command text) returns bigint
language sql strict
as $$ select cron._record_job(null, schedule, command, current_database(), current_user, true) $$;

create function cron.schedule(job_name text, schedule text, command text) returns bigint
language sql
as $$ select cron._record_job(job_name, schedule, command, current_database(), current_user, true) $$;

create function cron.schedule_in_database(job_name text, schedule text, command text, database text,
  username text default null, active boolean default true) returns bigint
language sql
as $$ select cron._record_job(job_name, schedule, command, database, coalesce(username, current_user), coalesce(active, true)) $$;
revoke all on function cron.schedule_in_database(text, text, text, text, text, boolean) from public;

create function cron.unschedule(job_id bigint) returns boolean
language plpgsql strict
as $$
begin
  delete from cron.job where jobid = job_id;
  if not found then
    raise exception 'could not find valid entry for job %', job_id;
  end if;
  return true;
end
$$;

create function cron.unschedule(job_name text) returns boolean
language plpgsql strict
as $$
begin
  delete from cron.job where jobname = job_name and username = current_user;
  if not found then
    raise exception 'could not find valid entry for job ''%''', job_name;
  end if;
  return true;
end
$$;

create function cron.alter_job(job_id bigint, schedule text default null, command text default null,
  database text default null, username text default null, active boolean default null) returns void
language plpgsql
as $$
begin
  if schedule is not null then
    perform cron._check_schedule(schedule);
  end if;
  update cron.job as j
  set schedule = coalesce(alter_job.schedule, j.schedule),
    command = coalesce(alter_job.command, j.command),
    database = coalesce(alter_job.database, j.database),
    username = coalesce(alter_job.username, j.username),
    active = coalesce(alter_job.active, j.active)
  where j.jobid = job_id;
  if not found then
    raise exception 'could not find valid entry for job %', job_id;
  end if;
end
$$;
revoke all on function cron.alter_job(bigint, text, text, text, text, boolean) from public;
