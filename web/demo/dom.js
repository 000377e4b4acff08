// The few DOM helpers the demo needs: elements built from data, never from
// HTML strings, so model and database text can never become markup.

/**
 * `h('p', { class: 'note' }, 'text', child)`: an element with attributes
 * (`class`, `hidden`, `aria-*`, …; `false`/`null` leave one out) and children
 * (strings, nodes, arrays; null skipped).
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

/** JSON as people read it: two-space indent. */
export const prettyJson = (value) => JSON.stringify(value, null, 2);

/**
 * An object as `key: value` lines, each value as one-line JSON: tool params
 * read at a glance (`filters: [{"field":"location","op":"=","value":"fridge"}]`).
 */
export const fieldLines = (object) =>
  Object.entries(object)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join('\n');
