// No UUID reaches the model. The core's prompt builder guarantees it for the
// Act prompt; the loop's own texts (correction feedback, plan and reply
// prompts) can still carry one: an executor or database error quoting a
// value, a user message. Known rows become their ref, others `<id>`.

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * `text` with every UUID replaced by its ref in `registry` (when given and
 * known there) or by `<id>`.
 *
 * @example
 * withoutUuids("Key (recipe_id)=(c69607bb-…) is not present", act.registry) // 'Key (recipe_id)=(recipe_3) is not present'
 */
export function withoutUuids(text, registry) {
  if (text.search(UUID) === -1) return text;
  const refs = registry ? refsByUuid(registry) : new Map();
  return text.replace(UUID, (uuid) => refs.get(uuid.toLowerCase()) ?? '<id>');
}

// Only saved rows: a promoted gen_ ref shares its row's UUID, and the
// regular ref is the one to use from then on.
function refsByUuid(registry) {
  const refs = new Map();
  for (const entry of registry.toJSON().refs ?? []) {
    if (entry.uuid && !entry.ref.startsWith('gen_')) refs.set(entry.uuid.toLowerCase(), entry.ref);
  }
  return refs;
}
