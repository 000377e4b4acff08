// The CHECK constraints of a schema's tables that list a text column's
// values, for the domain pull (catalog.js): the model is told the choices
// instead of learning them from a check_violation (docs/own-schema.md).

// The CHECK constraints on one column, as PostgreSQL prints them.
export const checksQuery = (name) => `select c.relname as table_name, a.attname as column_name,
        pg_catalog.pg_get_constraintdef(con.oid) as definition
      from pg_catalog.pg_constraint con join pg_catalog.pg_class c on c.oid = con.conrelid
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum = con.conkey[1]
      where con.contype = 'c' and n.nspname = ${name} and cardinality(con.conkey) = 1
      order by c.relname, a.attnum, con.conname`;

// Only casts of plain text: citext compares without case and char(n) pads,
// so an exact list would refuse values the database takes.
const TEXT_CASTS = new Set(['text', 'character varying']);

/**
 * The values a CHECK constraint allows `column`, as PostgreSQL prints
 * `check (status in ('draft', 'sent'))`: `CHECK ((status = ANY
 * (ARRAY['draft'::text, 'sent'::text])))`, a varchar's with its casts; and
 * the elements a text[] takes, `check (tags <@ array['a', 'b'])`. Null for
 * any other condition (a range, a pattern, `or … is null`).
 *
 * @example
 * checkValuesOf("CHECK ((status = ANY (ARRAY['draft'::text, 'sent'::text])))", 'status') // ['draft', 'sent']
 */
export function checkValuesOf(definition, column) {
  const text = String(definition ?? '');
  const operator = [' = ANY (', ' <@ '].find((op) => text.includes(op));
  const at = operator ? text.indexOf(operator) : -1;
  if (!text.startsWith('CHECK (') || at < 0 || text.indexOf(operator, at + 1) >= 0) return null;
  const leftSide = text.slice('CHECK ('.length, at);
  const casts = leftSide.match(/::[a-z ]+/g) ?? [];
  if (!casts.every((cast) => TEXT_CASTS.has(cast.slice(2)))) return null;
  const left = leftSide.replace(/::[a-z ]+/g, '').replace(/[()]/g, '');
  if (left !== column && left !== `"${column.replaceAll('"', '""')}"`) return null;
  const right = text.slice(at + operator.length);
  let rest = right.replace(/^\(?ARRAY\[/, '');
  if (rest === right) return null;
  const values = [];
  for (;;) {
    const literal = /^'((?:[^']|'')*)'::([a-z ]+)(, |\])/.exec(rest);
    if (!literal || !TEXT_CASTS.has(literal[2])) return null;
    values.push(literal[1].replaceAll("''", "'"));
    rest = rest.slice(literal[0].length);
    if (literal[3] === ']') break;
  }
  return /^(\)::[a-z ]+\[\])?\)+$/.test(rest) && values.length > 0 ? values : null;
}
