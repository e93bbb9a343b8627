'use strict';
/**
 * One successful run of every dropdown operation of the six action nodes, in an order where
 * each entry finds what it needs: creations before the reads, updates and deletes that use
 * them, destructive operations on things made for them (a registered account changes its
 * password, a bucket made empty is deleted). The emulator starts with the `demo` seed, whose
 * data the reads use (demo-bucket, the CDN channels, hosts web-1 and db-1, example-demo.com).
 *
 * An entry:
 *   { node, resource, operation,
 *     as?: 'username',                 run with that account's Vendor API credential (default demo)
 *     setup?: async (ctx) => {},       prepares through ctx (earlier results, the emulator's API
 *                                      and control routes, a dropdown as the editor calls it)
 *     params: {} | (ctx) => ({}),      the node parameters
 *     opts?: (ctx) => ({ input, binaryInput }),
 *     check: async (json, ctx, items) => {} }   throws when the output or the emulator's state
 *                                      is not what the operation promises
 * `ctx` is made by runner.js; `ctx.put(name, value)` / `ctx.get(name)` pass results on.
 *
 * Checks compare values as strings (a dialect may send "12" or 12) and read the emulator's
 * state in process (free of any wire dialect).
 *
 * One file per node (objectStorage.js, accountBilling.js, cdn.js, cloudHost.js,
 * diskNetworkFirewall.js, dns.js), each exporting its `entries` and their `fallbacks`;
 * checks.js holds what they share.
 */

const { must, same } = require('./checks');
const objectStorage = require('./objectStorage');
const accountBilling = require('./accountBilling');
const cdn = require('./cdn');
const cloudHost = require('./cloudHost');
const diskNetworkFirewall = require('./diskNetworkFirewall');
const dns = require('./dns');

/* ====================================================================== fallbacks */

/**
 * When an entry that later entries depend on fails, its fallback provides what they need, so
 * that one failing cell does not hide the rest of its node: it takes what the operation made
 * when it did its work (the output failed the check), or makes it through the emulator's API
 * or control routes, and puts the same names as the entry's check.
 */
const fallbacks = { ...objectStorage.fallbacks, ...accountBilling.fallbacks, ...cdn.fallbacks, ...cloudHost.fallbacks, ...diskNetworkFirewall.fallbacks, ...dns.fallbacks };

/* ====================================================================== */

const withNode = (node, entries) => entries.map((e) => ({ node, ...e, fallback: fallbacks[`${node}/${e.resource}/${e.operation}`] }));

/** Every entry, in run order: storage first (its signing meets the emulator's clock before any advance). */
const catalogue = [
	...withNode('vendorObjectStorage', objectStorage.entries),
	...withNode('vendorAccountBilling', accountBilling.entries),
	...withNode('vendorCdn', cdn.entries),
	...withNode('vendorCloudHost', cloudHost.entries),
	...withNode('vendorDiskNetworkFirewall', diskNetworkFirewall.entries),
	...withNode('vendorDns', dns.entries),
];

const keyOf = (e) => `${e.node}/${e.resource}/${e.operation}`;

module.exports = { catalogue, keyOf, fallbackKeys: Object.keys(fallbacks), must, same };
