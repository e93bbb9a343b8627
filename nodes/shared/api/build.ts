/**
 * A node from an area's declarations: what a node class (`nodes/<Node>/<Node>.node.ts`) takes
 * from the engine. The engine, by concern:
 *   properties.ts   the parameters (Resource, Operation, fields, Return All/Limit, Simplify, Options)
 *   field-kinds.ts  one entry per field kind: its parameter, its checks and wire form, its tool text
 *   methods.ts      the load-options methods of "From List" locators and multi-selects
 *   input.ts        reading, checking and converting an item's fields into the request body
 *   output.ts       the output records of an answer, Simplify
 *   tool-run.ts     what a tool run adds (the object acted on, the note after a cut list)
 *   execute.ts      the execute loop
 */
export { buildProperties } from './properties';
export { buildMethods } from './methods';
export { executeArea } from './execute';
