// The one stack every scenario module shares (a seeded local stack takes
// seconds to start on a loaded machine): importing this module registers
// the before/after hooks of the importing test file.
import { scenarioKit } from '../support/scenario.mjs';

export const kit = scenarioKit();
export const { db } = kit;

/** The catalog entry named `name` (`{ id, category }`), read as Ada. */
export async function catalog(name) {
  const [entry] = await db(`/ingredients?name=eq.${encodeURIComponent(name)}&select=id,category`);
  if (!entry) throw new Error(`the catalog has no ${name}`);
  return entry;
}
