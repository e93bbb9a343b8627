'use strict';
/**
 * Group `instance` of the management interface (docs/vendor/hosts-network-dns.md): the
 * catalogue (data centres, CPU and memory packages, lines, images), cloud hosts with their
 * disks, backups and snapshots, firewalls with rules, cloud disks and private networks.
 *
 * Choices where the documents are silent (they are the emulator's, not the vendor's):
 *  - Host status (docs/vendor/hosts-network-dns.md#host-status): create → 0 creating, then
 *    1 running after settings.timing.hostCreateMs (default 5000 ms of core.now()); restore,
 *    backupRestore and snapshotRollback → 4 reinstalling, then 1 after hostReinstallMs.
 *    Transitions are worked out lazily whenever the group is called (no timers).
 *  - update op: start → 1, stop → 2 (paused, i.e. powered off), reset → 1 (a reboot; a
 *    stopped host comes back running). Power operations, upgrade and reinstall need a host
 *    in 1, 2 or 3; vncproxy and sendkey need 1 running.
 *  - delete → 9 recycle bin: the host leaves its firewall and private network, its cloud
 *    disks are unbound (status 1) and its system disk goes to the recycle bin (2). Hosts,
 *    disks and backups in a recycle bin disappear after 2 hours.
 *  - A host sits in at most one firewall and one private network; joining another one
 *    fails until it leaves. Firewalls and networks cannot be deleted while hosts are in
 *    them; a cloud disk cannot be deleted while bound.
 *  - Backups: status 0 with `progress` growing to 100 over backupMs, then 1. A deleted
 *    backup goes to 4 (recycle bin). Snapshots are created with status 1 and deleted at
 *    once.
 *  - Empty attachments: `firewall` and `net` of a host and `instance` of a cloud disk are
 *    null when nothing is attached.
 *  - Host disk `type`: '1' system disk, '2' data (cloud) disk.
 *  - Prices (monthly): 20.00 per CPU core, 10.00 per G of memory, 15.00 per Mbps of public
 *    bandwidth, 0.30 per G of system disk. On demand (type 1) charges one hour (monthly
 *    / 720), monthly one month, yearly ten months. couponprice is taken off the order.
 *    Cloud disks charge 0.05 per G for the first month. Payments use paytype 1 (host) and
 *    2 (cloud disk) with bid = the resource id.
 *  - Additive extras besides the documented fields: `id` in the responses of create,
 *    backupAdd, snapshotAdd and firewallRuleAdd; `id` and `seq` in the rule items.
 *  - In backupAdd and snapshotAdd, `name` is the host's name and `snaphsot_name` the new
 *    object's name; elsewhere `name` next to backup_id / snapshot_id is the object's name.
 *  - cloudDiskBind / unbind with several disk ids answer one object whose disk_id and
 *    disk_name are comma-joined (create does the same with instance_id when num > 1).
 *  - monitor: `cpu` holds [ms timestamp, percent] points derived from the host id and the
 *    time bucket only (hour: 60 × 1 min, day: 288 × 5 min, week: 168 × 1 h,
 *    month: 180 × 4 h, year: 365 × 1 day). resultType 1 rounds to 2 decimals, else 4.
 *  - networkResourceList rows are the documented { id, linetype, node, status }
 *    (docs/vendor/hosts-network-dns.md#lines); `linetype` is the
 *    line code of instance/create `networkid` (1 inner network, 2 Telecom, 3 Unicom, 4 Mobile,
 *    5 BGP, 6 dual line; docs/vendor/readings.md#r61), as a
 *    string like the other numbers. By default the row `id` equals that code.
 *    Dialect lineIdsDiffer (docs/vendor/readings.md#r61): the rows get ids
 *    101, 102, ... in catalogue order (data centre, then line), never a line code, and the same
 *    row keeps its id in every listing, also as the `network.id` of a host in instance/list.
 *    instance/create takes only a line code offered in the data centre as networkid, in every
 *    mode; the error names the offered codes.
 *  - A host's `network` is {id: its line's row id, line: the line's name}; dialect hostLineWords
 *    names the line in the service's language (内网, 电信, 联通, 移动, 多线BGP, 双线; the row ids are
 *    then 101... as with lineIdsDiffer), one of them
 *    (多线BGP) a name no table of line names holds (docs/vendor/readings.md#r68).
 *  - Dialect objectIdInAnswers: backupRestore and snapshotRollback answers also carry `id`, the
 *    id of the backup or snapshot restored (docs/vendor/readings.md#r67).
 */
// The group's code is in instance/: model.js (constants, state, transitions, look-ups, prices,
// make*), render.js (answers), params.js (shared field checks), hosts.js (catalogue and hosts),
// disks.js (host disks, backups, snapshots), firewalls.js (firewalls and rules), cloud-disks.js,
// networks.js (private networks) and control.js (init, demo data, control routes).
const { catalogueRoutes, hostRoutes, hostSettingRoutes, hostConsoleRoutes } = require('./instance/hosts');
const { diskBackupRoutes, snapshotRoutes } = require('./instance/disks');
const { firewallRoutes } = require('./instance/firewalls');
const { cloudDiskRoutes } = require('./instance/cloud-disks');
const { networkRoutes } = require('./instance/networks');
const { init, seedDemo, control } = require('./instance/control');

// The route tables, merged in this order: the keys keep the order of the tables and, within
// each, of its entries.
const routes = {
	...catalogueRoutes,
	...hostRoutes,
	...hostSettingRoutes,
	...hostConsoleRoutes,
	...diskBackupRoutes,
	...snapshotRoutes,
	...firewallRoutes,
	...cloudDiskRoutes,
	...networkRoutes,
};

module.exports = {
	group: 'instance',
	name: 'Cloud hosts, disks, networks and firewalls',
	init,
	seedDemo,
	routes,
	control,
};
