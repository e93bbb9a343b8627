/**
 * Canvas subtitles in display names: "Get Many: Payment", not the internal values
 * ("getAll: payment") that `$parameter` holds.
 *
 * n8n evaluates a node's `subtitle` as an expression with `$parameter` (the values) and nothing
 * that maps a value to its option name, so the expression carries its own lookup table: an object
 * literal keyed "resource/operation", built here from the same lists the dropdowns are built
 * from. A pair the table does not know (an expression in the Operation field, a "Custom API
 * Call") falls back to the values as they are.
 */
interface Named {
	value: string;
	name: string;
}
interface NamedOperation {
	resource: string;
	operation: string;
	name: string;
}

/** `={{ {"host/getAll":"Get Many: Host", …}[resource + "/" + operation] || operation + ": " + resource }}` */
export function operationSubtitle(area: { resources: Named[]; operations: NamedOperation[] }): string {
	const resourceName = new Map(area.resources.map((r) => [r.value, r.name]));
	const table: Record<string, string> = {};
	for (const op of area.operations) table[`${op.resource}/${op.operation}`] = `${op.name}: ${resourceName.get(op.resource) ?? op.resource}`;
	// no "}}" may appear inside the expression: the table is one flat object literal followed by "["
	return `={{ ${JSON.stringify(table)}[$parameter["resource"] + "/" + $parameter["operation"]] || $parameter["operation"] + ": " + $parameter["resource"] }}`;
}

/**
 * A subtitle that names the chosen options of a multi-option parameter by their display names:
 * `={{ ($parameter["events"] || []).map(v => ({…})[v] || v).join(", ") }}`, with a prefix and suffix.
 */
export function optionsSubtitle(parameter: string, options: Array<{ name: string; value: string | number }>, prefix = '', suffix = ''): string {
	const table = Object.fromEntries(options.map((o) => [String(o.value), o.name]));
	const list = `($parameter[${JSON.stringify(parameter)}] || []).map(v => (${JSON.stringify(table)})[v] || v).join(", ")`;
	return `={{ ${JSON.stringify(prefix)} + ${list} + ${JSON.stringify(suffix)} }}`;
}
