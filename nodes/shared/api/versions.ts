/**
 * Node versions. A saved workflow keeps its node's typeVersion and only the parameters that
 * differ from their defaults, so a change that would alter what an old workflow sends comes as a
 * new node version (n8n's own practice: `version: [1, 1.1]`, the newest for new workflows). An
 * operation or field declares `since` / `until` (the first / last version that has it); the
 * properties of every version are built and merged, and what differs between versions carries
 * n8n's `@version` display condition. At run time the engine reads the declarations of the
 * workflow's own typeVersion. schema/README.md explains when a version is needed.
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import type { ApiArea, FieldDecl } from './declarations';

type Versioned = { since?: number; until?: number };

const inVersion = (x: Versioned, v: number) => (x.since === undefined || v >= x.since) && (x.until === undefined || v <= x.until);

function fieldsAt(fields: FieldDecl[], v: number): FieldDecl[] {
	return fields.filter((f) => inVersion(f, v)).map((f) => (f.rows ? { ...f, rows: { ...f.rows, fields: fieldsAt(f.rows.fields, v) } } : f));
}

const cache = new WeakMap<ApiArea, Map<number, ApiArea>>();

/** The area as one node version has it: the operations and fields of that version only. */
export function areaAt(area: ApiArea, version: number): ApiArea {
	if (area.versions.length === 1) return area;
	const known = cache.get(area) ?? new Map<number, ApiArea>();
	cache.set(area, known);
	const v = area.versions.includes(version) ? version : Math.max(...area.versions);
	let out = known.get(v);
	if (!out) {
		out = { ...area, operations: area.operations.filter((o) => inVersion(o, v)).map((o) => (o.fields ? { ...o, fields: fieldsAt(o.fields, v) } : o)) };
		known.set(v, out);
	}
	return out;
}

/** `version` and `defaultVersion` of a node description: every version served, the newest for new workflows. */
export function nodeVersions(area: ApiArea): Pick<INodeTypeDescription, 'version' | 'defaultVersion'> {
	const bad = area.operations.flatMap((o) => [o, ...(o.fields ?? [])]).find((x) => [x.since, x.until].some((v) => v !== undefined && !area.versions.includes(v)));
	if (bad) throw new Error(`${area.node}: since/until must name one of the versions ${area.versions.join(', ')}`);
	return { version: area.versions.length === 1 ? area.versions : [...area.versions], defaultVersion: Math.max(...area.versions) };
}

/**
 * The properties of every version of an area, merged: a property that is the same in every
 * version appears once; one that differs appears once per form, shown only for its versions.
 */
export function versionedProperties(area: ApiArea, build: (area: ApiArea) => INodeProperties[]): INodeProperties[] {
	if (area.versions.length === 1) return build(area);
	const newestFirst = [...area.versions].sort((a, b) => b - a);
	const merged: Array<{ key: string; property: INodeProperties; versions: number[] }> = [];
	for (const v of newestFirst) {
		let after = -1; // where the previous property of this version's list stands in the merged list
		for (const property of build(areaAt(area, v))) {
			const key = JSON.stringify(property);
			let at = merged.findIndex((m) => m.key === key);
			if (at === -1) {
				merged.splice(after + 1, 0, { key, property, versions: [] });
				at = after + 1;
			}
			merged[at].versions.push(v);
			after = at;
		}
	}
	return merged.map(({ property, versions }) => {
		if (versions.length === area.versions.length) return property;
		const show = { ...(property.displayOptions?.show ?? {}), '@version': [...versions].sort((a, b) => a - b) };
		return { ...property, displayOptions: { ...property.displayOptions, show } };
	});
}
