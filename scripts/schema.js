#!/usr/bin/env node
'use strict';
/**
 * `npm run schema`: compares the built package's parameter schema with the one written down in
 * schema/ and says what changed and what to do (see schema/README.md).
 * `npm run schema -- --update`: writes the built schema down, when every change keeps saved
 * workflows working (an addition, a new node version, or a listed pre-release change).
 * Run `npm run build` first: the schema is read from dist/, as n8n loads it.
 */
const lib = require('./schema-lib');

const update = process.argv.includes('--update');
const built = lib.buildSchema();
const recorded = lib.readSnapshot();
const v = lib.verdict(recorded, built, lib.readPreRelease());
if (v.ok) {
	console.log(`schema: the build matches schema/ (${Object.keys(built.nodes).length} nodes, ${Object.keys(built.credentials).length} credentials)`);
	process.exit(0);
}
console.log(lib.report(v));
if (update && v.canUpdate) {
	lib.writeSnapshot(built);
	console.log('\nschema: written to schema/');
	process.exit(0);
}
process.exit(1);
