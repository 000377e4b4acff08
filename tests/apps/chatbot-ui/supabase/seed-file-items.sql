-- Ours, for alfred-act's tests, run after the app's own seed.sql (which makes
-- test@test.com and its "File 1"): a second user, Ben, whose profile and Home
-- workspace come from the app's create_profile_and_workspace trigger, two
-- files of his (one private, one shared), and embedded file items in every
-- file. The embeddings are vector(384) (local_embedding, the size the app
-- uses with all-MiniLM-L6-v2) made from the first two axes, so cosine
-- similarity to the first axis is exact: 1, 0.8, 0.6 and 0.

insert into auth.users (id, email) values ('0b0b0b0b-0000-4000-8000-00000000000b', 'ben@example.com');

insert into files (id, user_id, name, description, file_path, size, tokens, type, sharing) values
  ('f0000000-0000-4000-8000-0000000000b1', '0b0b0b0b-0000-4000-8000-00000000000b', 'Ben notes', 'Private notes',
   '0b0b0b0b-0000-4000-8000-00000000000b/ben-notes.txt', 2048, 40, 'text/plain', 'private'),
  ('f0000000-0000-4000-8000-0000000000b2', '0b0b0b0b-0000-4000-8000-00000000000b', 'Handbook', 'Shared team handbook',
   '0b0b0b0b-0000-4000-8000-00000000000b/handbook.md', 4096, 80, 'text/markdown', 'public');

insert into file_items (file_id, user_id, content, tokens, local_embedding)
select file.id, file.user_id, item.content, item.tokens,
  (select array_agg(case when axis = 1 then item.x when axis = 2 then item.y else 0 end order by axis)
   from generate_series(1, 384) as axis)::vector(384)
from (values
  ('File 1', 'Relativity: the speed of light is the same for every observer.', 14, 1.0, 0.0),
  ('File 1', 'Photoelectric effect: light comes in quanta.', 10, 0.6, 0.8),
  ('Ben notes', 'Dentist on Tuesday at nine.', 8, 0.0, 1.0),
  ('Handbook', 'Light bulbs are replaced by facilities, not by the team.', 13, 0.8, 0.6)
) as item(file_name, content, tokens, x, y)
join files as file on file.name = item.file_name;
