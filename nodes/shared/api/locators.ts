/**
 * Resources that parameters pick "From list" (resource locators) or from multi-selects. Each
 * names the list endpoint that supplies the choices and how a record is shown. Dependent lists
 * read the current value of another parameter (e.g. lines of the chosen data center: `nodeid`).
 */
import type { IDataObject } from 'n8n-workflow';

import { CODES, lineCode } from './codes';
import type { LocatorDecl } from './declarations';
import { listRows, payload } from './envelope';
import { serializedList } from './serialized';

const s = (v: unknown) => (v === undefined || v === null ? '' : String(v));
/** A nested record; `[]` (an empty object written PHP style) and other non-objects read as {}. */
const obj = (v: unknown): IDataObject => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as IDataObject) : {});

const idOf = (current: (name: string) => unknown, name: string): IDataObject => {
	const v = current(name);
	const id = typeof v === 'object' && v !== null ? (v as IDataObject).value : v;
	return id !== undefined && id !== null && id !== '' ? { [name]: Number(id) } : {};
};

const list: LocatorDecl[] = [
	// account & billing
	{ key: 'group', label: 'Group', path: 'profile/groupList', paged: true, filterParam: 'name', name: (r) => s(r.name), resolve: { fields: ['name'], what: 'a name' } },
	{ key: 'subAccount', label: 'Sub-Account', path: 'profile/subaccountList', paged: true, idField: 'uid', name: (r) => `${s(r.name)}${r.mail ? ` (${s(r.mail)})` : ''}`, resolve: { fields: ['name', 'mail'], what: 'a username or an e-mail address', example: 'ops-1' } },
	{
		key: 'permissionPath',
		label: 'Permission',
		path: 'profile/groupPermissions',
		paged: false,
		idField: 'value',
		idPattern: '^API/[A-Za-z]+/[A-Za-z]+$',
		name: (r) => `${s(r.module)}: ${s(r.label)} (${s(r.value)})`,
		rows: (e) => {
			const out: IDataObject[] = [];
			const modules = (payload(e) ?? {}) as IDataObject;
			for (const mod of Object.values(modules) as IDataObject[]) {
				for (const [value, label] of Object.entries((mod.subs ?? {}) as IDataObject)) {
					out.push({ value, label: s(label), module: s(mod.name ?? mod.module) });
				}
			}
			return out;
		},
	},
	{ key: 'groupRole', label: 'Permission Entry', path: 'profile/groupRoleList', paged: false, name: (r) => `${s(r.value)} (#${s(r.id)})`, body: (c) => idOf(c, 'gid') },
	// CDN
	{
		key: 'billingType',
		label: 'Billing Type',
		path: 'cdn/profileDetail',
		paged: false,
		idField: 'billtype',
		idPattern: '^.+$',
		name: (r) => `${s(r.billtype_zh || r.billtype)} (${s(r.billtype)})`,
		rows: (e) => {
			const seen = new Set<string>();
			return listRows(e).filter((r) => !seen.has(s(r.billtype)) && !!seen.add(s(r.billtype)));
		},
	},
	{ key: 'channel', label: 'Channel', path: 'cdn/domainList', paged: true, name: (r) => `${s(r.name)}${r.type ? ` (${s(r.type)})` : ''}`, resolve: { fields: ['name', 'cname'], what: 'a domain name or CNAME', example: 'cdn.example.com' } },
	{ key: 'certificate', label: 'Certificate', path: 'cdn/sslList', paged: true, name: (r) => `${s(r.name)}${r.commonname ? ` (${s(r.commonname)})` : ''}`, resolve: { fields: ['name', 'commonname'], what: 'a name or common name', example: 'www.example.com' } },
	{ key: 'cdnTask', label: 'Task', path: 'cdn/refreshList', paged: true, name: (r) => `#${s(r.id)} ${Array.isArray(r.urls) ? s((r.urls as unknown[])[0]) : ''}` },
	// channels identified by their name (cdn/nodes, cdn/getNodesByClientIP take the channel's domain)
	{ key: 'channelName', label: 'Channel', path: 'cdn/domainList', paged: true, idField: 'name', idPattern: '^[A-Za-z0-9*][A-Za-z0-9.*-]*$', name: (r) => `${s(r.name)}${r.type ? ` (${s(r.type)})` : ''}` },
	// refresh tasks only, and prefetch tasks only (the status and repeat endpoints take one kind)
	{ key: 'refreshTask', label: 'Refresh Task', path: 'cdn/refreshList', paged: true, body: () => ({ preload: 0 }), name: (r) => `#${s(r.id)} ${Array.isArray(r.urls) ? s((r.urls as unknown[])[0]) : ''}` },
	{ key: 'prefetchTask', label: 'Prefetch Task', path: 'cdn/refreshList', paged: true, body: () => ({ preload: 1 }), name: (r) => `#${s(r.id)} ${Array.isArray(r.urls) ? s((r.urls as unknown[])[0]) : ''}` },
	// cloud hosts and resources
	{
		key: 'host',
		label: 'Host',
		path: 'instance/list',
		paged: true,
		// every host shown the same way: its instance ID, then its first IP address when it has one
		name: (r) => {
			const ip = Array.isArray(r.ips) && r.ips.length ? s((r.ips as unknown[])[0]) : '';
			const shownAs = [r.instance_id ? s(r.instance_id) : '', ip].filter(Boolean).join(', ');
			return `${s(r.name)}${shownAs ? ` (${shownAs})` : ''}`;
		},
		resolve: { fields: ['name', 'instance_id', 'instanceid', 'ips', 'innerip'], what: 'a name, an instance ID or an IP address', example: 'web-1' },
	},
	{ key: 'dataCentre', label: 'Data Center', path: 'instance/nodeList', paged: false, name: (r) => s(r.areaname), resolve: { fields: ['areaname'], what: 'a name' } },
	{ key: 'cpuPackage', label: 'CPU Package', path: 'instance/cpuResourceList', paged: false, name: (r) => `${s(r.volume)} CPU` },
	{ key: 'memPackage', label: 'Memory Package', path: 'instance/memResourceList', paged: false, rows: listRows, name: (r) => `${s(r.volume)} memory` },
	{
		// the value is the line code (`linetype`), which instance/create takes as `networkid`
		key: 'line',
		label: 'Line',
		path: 'instance/networkResourceList',
		paged: false,
		rows: listRows,
		idPattern: '^[1-6]$',
		idPlaceholder: 'e.g. 5 for BGP',
		idName: 'Code',
		value: (r) => {
			const code = lineCode(r.linetype);
			return code === undefined ? undefined : String(code);
		},
		name: (r) => {
			const code = lineCode(r.linetype);
			const word = code !== undefined && CODES.line[String(code)] ? CODES.line[String(code)] : s(r.linetype);
			const area = s(obj(r.node).areaname);
			return `${word}${area ? ` (${area})` : ''}`;
		},
		body: (c) => idOf(c, 'nodeid'),
	},
	{ key: 'image', label: 'Image', path: 'instance/imageList', paged: false, name: (r) => `${s(r.osname)}${r.osdigit ? ` ${s(r.osdigit)}-bit` : ''}`, resolve: { fields: ['osname', 'image_id'], what: 'an OS name or image ID', example: 'Ubuntu' } },
	{ key: 'hostDisk', label: 'Host Disk', path: 'instance/diskList', paged: true, name: (r) => `${s(r.disk_name || r.disk_id)} (${s(r.value)} G)`, body: (c) => idOf(c, 'iid') },
	// the same disks identified by `disk_id` (the external volume id), as instance/upgrade `diskresize` names them
	{
		key: 'hostDiskVolume',
		label: 'Host Disk',
		path: 'instance/diskList',
		paged: true,
		idField: 'disk_id',
		idPattern: '^[A-Za-z0-9_-]+$',
		name: (r) => `${s(r.disk_name || r.disk_id)} (${s(r.value)} G)`,
		body: (c) => idOf(c, 'iid'),
	},
	{ key: 'backup', label: 'Backup', path: 'instance/backupList', paged: true, name: (r) => `${s(r.name)} (#${s(r.id)})`, body: (c) => idOf(c, 'iid'), resolve: { fields: ['name', 'backup_id'], what: 'a name or backup ID', example: 'db-1-weekly' } },
	{ key: 'snapshot', label: 'Snapshot', path: 'instance/snapshotList', paged: true, name: (r) => `${s(r.name)} (#${s(r.id)})`, body: (c) => idOf(c, 'iid'), resolve: { fields: ['name', 'snapshot_id'], what: 'a name or snapshot ID', example: 'before-upgrade' } },
	// disks, networks, firewalls
	{ key: 'firewall', label: 'Firewall', path: 'instance/firewallList', paged: true, name: (r) => s(r.name), resolve: { fields: ['name', 'firewall_id'], what: 'a name or firewall ID', example: 'web-sg' } },
	{ key: 'firewallRule', label: 'Firewall Rule', path: 'instance/firewallRuleList', paged: true, name: (r) => `${s(r.direction)} ${s(r.action)} ${s(r.protocol)} ${s(r.destport)} (#${s(r.id)})`, body: (c) => idOf(c, 'fid') },
	{ key: 'cloudDisk', label: 'Cloud Disk', path: 'instance/cloudDiskList', paged: true, name: (r) => `${s(r.disk_name)} (${s(r.value)} G)`, resolve: { fields: ['disk_name', 'disk_id'], what: 'a disk name or disk ID', example: 'db-data' } },
	{ key: 'network', label: 'Private Network', path: 'instance/networkList', paged: true, name: (r) => `${s(r.name)}${r.vxnet_id ? ` (${s(r.vxnet_id)})` : ''}`, resolve: { fields: ['name', 'vxnet_id'], what: 'a name or network ID', example: 'backend' } },
	// DNS
	{ key: 'dnsPlan', label: 'Plan', path: 'dns/planList', paged: true, name: (r) => `${s(r.name)}${r.price !== undefined ? ` (${s(r.price)})` : ''}`, resolve: { fields: ['name'], what: 'a name' } },
	{
		// notification methods the plans offer (monitor_notice), for dns/monitorAdd `notify`
		key: 'notifyMethod',
		label: 'Notification Method',
		path: 'dns/planList',
		paged: true,
		idField: 'value',
		idPattern: '^.+$',
		name: (r) => `${s(r.value)} (${s(r.plans)})`,
		rows: (e) => {
			const plans = new Map<string, string[]>();
			for (const plan of listRows(e)) {
				for (const method of serializedList(plan.monitor_notice)) plans.set(method, [...(plans.get(method) ?? []), s(plan.name)]);
			}
			return [...plans].map(([value, names]) => ({ value, plans: names.join(', ') }));
		},
	},
	{ key: 'domain', label: 'Domain', path: 'dns/domainList', paged: true, name: (r) => s(r.name), resolve: { fields: ['name'], what: 'a domain name', example: 'example.com' } },
	{ key: 'record', label: 'Record', path: 'dns/recordList', paged: true, name: (r) => `${s(r.subdomain)} ${s(r.recordtype)} ${s(r.value)}`, body: (c) => idOf(c, 'did') },
	{ key: 'monitor', label: 'Monitor', path: 'dns/monitorList', paged: true, name: (r) => `${s(r.subdomain)}.${s(r.domain_name)} (#${s(r.id)})` },
	{ key: 'monitorRecord', label: 'Monitor Record', path: 'dns/monitorRecordList', paged: true, name: (r) => `${s(r.subdomain)} ${s(r.ip)} (#${s(r.id)})`, body: (c) => idOf(c, 'mid') },
	{ key: 'template', label: 'Strategy Template', path: 'dns/tempList', paged: true, name: (r) => s(r.name), resolve: { fields: ['name'], what: 'a name' } },
	{ key: 'templateRecord', label: 'Template Record', path: 'dns/tempStyList', paged: true, name: (r) => `${[r.country, r.province, r.city, r.isp].filter(Boolean).map(s).join(' ')} ${s(r.ip)} (#${s(r.id)})`, body: (c) => idOf(c, 'tid') },
	{ key: 'strategy', label: 'Resolution Strategy', path: 'dns/styList', paged: true, name: (r) => `${s(r.subdomain)} ${s(r.sty)} (#${s(r.id)})`, body: (c) => idOf(c, 'did') },
];

export const LOCATORS: Record<string, LocatorDecl> = Object.fromEntries(list.map((l) => [l.key, l]));

/** The locator of a key; an unknown key is a mistake in a declaration. */
export function locatorOf(key: string): LocatorDecl {
	const loc = LOCATORS[key];
	if (!loc) throw new Error(`unknown locator "${key}"`);
	return loc;
}
