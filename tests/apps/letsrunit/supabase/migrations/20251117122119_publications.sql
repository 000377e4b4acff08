alter publication supabase_realtime add table public.projects;
alter publication supabase_realtime add table public.runs;
alter publication supabase_realtime add table public.journal_entries;
alter publication supabase_realtime add table public.features;
