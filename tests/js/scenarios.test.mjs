// User-level scenarios against the real local stack (PostgREST 12 on PGlite):
// each plain request ("add bread, butter and eggs to my shopping list",
// "remove everything expired", "save that recipe you just made") written as
// the tool calls a model would make, run by createAct or, for multi-step
// requests, by runTurn with a scripted model, and checked by reading the
// database back as the user with an independent query. Every table of the
// kitchen domain is covered (docs/scenarios.md has the matrix). One shared
// stack; the modules run in this order, each scenario on its own rows or
// comparing the whole table before and after.
import './scenarios/mistakes.mjs';
import './scenarios/shopping.mjs';
import './scenarios/inventory.mjs';
import './scenarios/recipes.mjs';
import './scenarios/planning.mjs';
import './scenarios/turns.mjs';
