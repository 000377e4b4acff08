-- Written for alfred-act's tests; not part of the published example, which
-- has no seed (its products and prices come from Stripe webhooks). Two users
-- with passwords (bcrypt through pgcrypto's crypt(), as Supabase seeds write
-- them); the example's trigger makes their public.users rows. One product with
-- two prices, and a subscription and a customer for Ada only.
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values
  ('00000000-0000-0000-0000-000000000000', '3b7e5d90-0000-4000-8000-00000000a0a1', 'authenticated', 'authenticated',
   'ada@example.com', crypt('ada-password', gen_salt('bf')), now(),
   '{"provider": "email", "providers": ["email"]}', '{"full_name": "Ada Lovelace"}', now(), now()),
  ('00000000-0000-0000-0000-000000000000', '3b7e5d90-0000-4000-8000-00000000b0b2', 'authenticated', 'authenticated',
   'ben@example.com', crypt('ben-password', gen_salt('bf')), now(),
   '{"provider": "email", "providers": ["email"]}', '{"full_name": "Ben Okafor"}', now(), now());

insert into products (id, active, name, description)
values ('prod_hobby', true, 'Hobby', 'For side projects');

insert into prices (id, product_id, active, unit_amount, currency, type, interval, interval_count)
values
  ('price_hobby_month', 'prod_hobby', true, 1000, 'usd', 'recurring', 'month', 1),
  ('price_hobby_year', 'prod_hobby', true, 10000, 'usd', 'recurring', 'year', 1);

insert into customers (id, stripe_customer_id)
values ('3b7e5d90-0000-4000-8000-00000000a0a1', 'cus_ada');

insert into subscriptions (id, user_id, status, price_id, quantity, cancel_at_period_end)
values ('sub_ada', '3b7e5d90-0000-4000-8000-00000000a0a1', 'active', 'price_hobby_month', 1, false);
