-- Semantic recipe search: the caller's recipes nearest to a query embedding by
-- cosine distance. SECURITY INVOKER, so the recipes RLS policy limits it to the
-- caller's own rows; there is no user id parameter to get wrong.
create function public.match_recipes(
  query_embedding extensions.vector(1536),
  match_count int default 20,
  max_distance float default 0.7
)
returns table (id uuid, name text, distance float)
language sql stable security invoker
set search_path = ''
as $$
  select r.id, r.name, (r.embedding operator(extensions.<=>) query_embedding)::float as distance
  from public.recipes r
  where r.embedding is not null
    and r.embedding operator(extensions.<=>) query_embedding <= max_distance
  order by distance, r.id
  limit match_count
$$;
