'use strict';
/**
 * Content delivery: the control routes of the emulator (settle tasks, use traffic), the fresh
 * state of the group (init) and the demo account's channels, certificate, tasks and traffic
 * package (seedDemo).
 */
const { ApiError } = require('../util');
const { controlRoute } = require('../common');
const { GIB, DAY, slice, yyyymm } = require('./model');
const { newChannel } = require('./channels');
const { certNames } = require('./certificates');
const { flowAccount, consumeTraffic } = require('./traffic');

// ---------------------------------------------------------------- control and demo data

/** Control routes (/__emulator/management/cdn/...) of one emulator's core. */
function control(core) {
	return {
		/** Make every refresh/prefetch task final now. */
		'POST /cdn/tasks/settle': controlRoute(() => {
			const now = core.now();
			let n = 0;
			for (const t of slice(core).tasks) {
				if (t.readyAt > now) {
					t.readyAt = now;
					n++;
				}
			}
			return { settled: n };
		}),
		/** Use traffic on a channel: { id | name, bytes } → how it was paid for. */
		'POST /cdn/traffic': controlRoute((b) => {
			const c = slice(core).channels.find((x) => (b.id !== undefined && x.id === Number(b.id)) || (b.name && x.name === b.name));
			if (!c) throw new ApiError(`no channel ${b.id || b.name}`);
			const bytes = Number(b.bytes);
			if (!(bytes > 0)) throw new ApiError('bytes must be above 0');
			return consumeTraffic(core, c, Math.floor(bytes));
		}),
	};
}

function seedCert(cn, extra = '') {
	const body = Buffer.from(`demo certificate ${cn}`).toString('base64');
	return `subject=CN=${cn}\n${extra}-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

module.exports = {
	control,
	init(core) {
		const now = core.now();
		const tiers = [
			[0, 10240, '0.20'],
			[10240, 51200, '0.18'],
			[51200, 102400, '0.15'],
			[102400, 0, '0.12'],
		].map(([lower, upper, price], i) => ({ id: i + 1, type: 1, lower, upper, price, createdAt: now, updatedAt: now }));
		core.state.cdn = { channels: [], certs: [], tasks: [], packages: [], flow: {}, tiers };
	},
	seedDemo(core) {
		const demo = core.accountByName('demo');
		if (!demo) return;
		const s = slice(core);
		const now = core.now();
		const cert = {
			id: core.nextId('cert'),
			uid: demo.uid,
			name: 'example-wildcard',
			ssl_crt: seedCert('*.example.com', 'X509v3 Subject Alternative Name: DNS:*.example.com, DNS:example.com\n'),
			ssl_key: '-----BEGIN PRIVATE KEY-----\nZGVtbyBrZXk=\n-----END PRIVATE KEY-----\n',
			ssl_ca: '',
			createdAt: now - 35 * DAY,
		};
		Object.assign(cert, certNames(cert.ssl_crt, cert.name));
		s.certs.push(cert);
		const ops = core.accountByName('demo_ops');
		const defs = [
			{ name: 'www.example.com', type: 'cloud', ip: { '192.0.2.10': '80' }, ssl: true, days: 40 },
			{ name: 'static.example.com', type: 'static', ip: { '192.0.2.11': '80' }, ssl: true, days: 30, mark: 1 },
			{ name: 'download.example.com', type: 'download', ip: { '192.0.2.12': '8080' }, days: 25, status: 2 },
			{ name: 'live.example.com', type: 'live', ip: {}, days: 10, sub: true },
		];
		for (const d of defs) {
			const c = newChannel(core, { uid: demo.uid, sub_uid: d.sub && ops ? ops.uid : 0, name: d.name, type: d.type });
			Object.assign(c, {
				id: core.nextId('channel', 1001),
				ip: d.ip,
				status: d.status || 1,
				mark: d.mark || 0,
				sslconf_id: d.ssl ? cert.id : 0,
				ssl_redirect: d.ssl ? 1 : 0,
				icp: 'EX-ICP-0001',
				createdAt: now - d.days * DAY,
			});
			if (d.type === 'static') {
				c.cachetype = 'custom';
				c.cacheconf = [{ pattern: 'jpg,png,css,js', ttl: '30', unit: 'd', type: 'cache', path: '', check_origin: '0' }];
			}
			s.channels.push(c);
		}
		// Finished tasks from last week.
		const finished = [
			{ kind: 'refresh', type: 'file', urls: ['https://www.example.com/index.html', 'https://www.example.com/app.js'] },
			{ kind: 'refresh', type: 'dir', urls: ['https://static.example.com/img/'] },
			{ kind: 'preload', type: 'file', urls: ['https://download.example.com/setup.exe'], preloadtype: 1 },
		];
		finished.forEach((t, i) => {
			const createdAt = now - (7 - i) * DAY;
			s.tasks.push({
				id: core.nextId('task'),
				uid: demo.uid,
				sub_uid: 0,
				preloadtype: 0,
				...t,
				createdAt,
				readyAt: createdAt + 3000,
				failed: false,
			});
		});
		// The 100 GB package paid 20 days ago (its payment is in the account history).
		const pay = core.state.payments.find((x) => x.uid === demo.uid && Number(x.paytype) === 6);
		s.packages.push({
			id: core.nextId('flowpkg'),
			uid: demo.uid,
			sub_uid: 0,
			name: 'Traffic package 100.00 GB',
			flow: 100 * GIB,
			flowover: 60 * GIB,
			month: yyyymm(now),
			monthUsed: 15 * GIB,
			paymentId: pay ? pay.id : 0,
			code: pay ? pay.code : 'P0',
			createdAt: now - 20 * DAY,
		});
		if (pay) pay.bid = s.packages[s.packages.length - 1].id;
		const f = flowAccount(core, demo.uid);
		f.freeUsed = 4 * GIB;
		f.monthUsed = 19 * GIB;
	},
};
