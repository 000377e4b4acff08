-- The publication Supabase Realtime listens to. A project starts with it,
-- empty; "enable Realtime" on a table is `alter publication supabase_realtime
-- add table …`, which migrations contain. There is no Realtime service on the
-- local stack: the publication is there so those migrations run.
do $$
begin
  if not exists (select from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end
$$;
