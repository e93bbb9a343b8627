'use strict';
/**
 * Content delivery: traffic and bills. The monthly free quota, the traffic packages and how
 * traffic is paid for, and the routes: price tiers, buy, list and balance of packages
 * (packageRoutes); bills by account and by channel (billRoutes).
 */
const { ApiError, str, round2, money } = require('../util');
const { accountName } = require('../common');
const account = require('../account');
const {
	BILL_SRV_TYPES,
	SRV_ZH,
	BILLTYPE_ZH,
	GIB,
	FREE_FLOW,
	slice,
	hourStats,
	monthTx,
	formatBytes,
	yyyymm,
	channelsParam,
} = require('./model');
const { serviceTypeOf } = require('./statistics');

// ---------------------------------------------------------------- traffic

function flowAccount(core, uid) {
	const s = slice(core);
	const m = yyyymm(core.now());
	const f = (s.flow[uid] = s.flow[uid] || { month: m, freeUsed: 0, monthUsed: 0 });
	if (f.month !== m) Object.assign(f, { month: m, freeUsed: 0, monthUsed: 0 });
	return f;
}

function packagesOf(core, uid) {
	const m = yyyymm(core.now());
	return slice(core)
		.packages.filter((x) => x.uid === uid)
		.map((x) => {
			if (x.month !== m) Object.assign(x, { month: m, monthUsed: 0 });
			return x;
		});
}

function tierFor(core, gib) {
	const tiers = slice(core).tiers;
	return tiers.find((t) => gib >= t.lower && (t.upper === 0 || gib < t.upper)) || tiers[tiers.length - 1];
}

function flowBalance(core, owner) {
	const f = flowAccount(core, owner.uid);
	const pk = packagesOf(core, owner.uid);
	const buyTotal = pk.reduce((a, x) => a + x.flow, 0);
	const buyLeft = pk.reduce((a, x) => a + x.flowover, 0);
	return { f, buyTotal, buyLeft, freeLeft: Math.max(0, FREE_FLOW - f.freeUsed) };
}

/** Uses `bytes` of traffic of channel `c`: free quota, then packages, then the balance. */
function consumeTraffic(core, c, bytes) {
	const owner = core.account(c.uid);
	const f = flowAccount(core, owner.uid);
	let left = bytes;
	const fromFree = Math.min(left, Math.max(0, FREE_FLOW - f.freeUsed));
	left -= fromFree;
	let fromPackages = 0;
	for (const x of packagesOf(core, owner.uid).sort((a, b) => a.createdAt - b.createdAt || a.id - b.id)) {
		if (left <= 0) break;
		const take = Math.min(left, x.flowover);
		x.flowover -= take;
		x.monthUsed += take;
		left -= take;
		fromPackages += take;
	}
	let charged = '0.00';
	if (left > 0) {
		const price = Math.ceil((left / GIB) * Number(slice(core).tiers[0].price) * 100) / 100;
		core.charge(owner, { price, paytype: 5, bid: c.id, name: `CDN traffic ${formatBytes(left)} of ${c.name}` });
		charged = money(price);
	}
	f.freeUsed += fromFree;
	f.monthUsed += bytes;
	return { free: fromFree, packages: fromPackages, overage: left, charged };
}

function renderPackage(core, x) {
	return {
		username: accountName(core, x.uid),
		id: str(x.id),
		uid: str(x.uid),
		sub_uid: str(x.sub_uid),
		bid: str(x.paymentId),
		name: x.name,
		code: x.code,
		type: '1',
		paytype: '6',
		type_zh: 'Purchase',
		paytype_zh: 'CDN traffic package',
		flowtype_zh: 'Purchased traffic',
		flow: str(x.flow),
		flowover: str(x.flowover),
		monthflow: str(x.month === yyyymm(core.now()) ? x.monthUsed : 0),
		status: x.flowover > 0 ? '1' : '0',
		...core.stamp(x.createdAt),
	};
}

const packageRoutes = {
	'cdn/flowPriceList': {
		label: 'Traffic price tiers',
		read: true,
		handler(rq) {
			const { core } = rq;
			return {
				data: slice(core).tiers.map((t) => ({
					id: str(t.id),
					type: str(t.type),
					lower: str(t.lower),
					upper: str(t.upper),
					price: t.price,
					...core.stamp(t.createdAt),
					...core.stamp(t.updatedAt, 'updatetime'),
				})),
			};
		},
	},
	'cdn/payFlowAdd': {
		label: 'Buy traffic package',
		logType: 'finance',
		handler(rq) {
			const { p, core, owner, user } = rq;
			const flow = p.int('flow', { required: true, min: GIB });
			const useCoupon = p.decimal('couponprice', { min: 0, def: 0 });
			const gib = flow / GIB;
			const tier = tierFor(core, gib);
			const cost = Math.ceil(gib * Number(tier.price) * 100) / 100;
			if (useCoupon > cost) throw new ApiError(`couponprice ${money(useCoupon)} exceeds the package price ${money(cost)}`);
			if (useCoupon > Number(account.couponBalance(core, owner)) + 1e-9) {
				throw new ApiError(`couponprice ${money(useCoupon)} exceeds the coupon balance ${account.couponBalance(core, owner)}`);
			}
			const id = core.nextId('flowpkg');
			const name = `Traffic package ${formatBytes(flow)}`;
			const cash = round2(cost - useCoupon);
			let pay = null;
			if (cash > 0) pay = core.charge(owner, { price: cash, paytype: 6, bid: id, name });
			if (useCoupon > 0) {
				account.spendCoupons(core, owner, useCoupon);
				const rec = core.charge(owner, { price: useCoupon, paytype: 6, bid: id, name, type: 4 });
				pay = pay || rec;
			}
			const x = {
				id,
				uid: owner.uid,
				sub_uid: user.parent ? user.uid : 0,
				name,
				flow,
				flowover: flow,
				month: yyyymm(core.now()),
				monthUsed: 0,
				paymentId: pay.id,
				code: pay.code,
				createdAt: core.now(),
			};
			slice(core).packages.push(x);
			const b = flowBalance(core, owner);
			return { data: { username: owner.name, freeflowtotal: str(FREE_FLOW), freeflow: str(b.freeLeft), flow: str(b.buyLeft) } };
		},
	},
	'cdn/payFlowList': {
		label: 'List traffic packages',
		read: true,
		handler(rq) {
			const items = packagesOf(rq.core, rq.owner.uid).sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
			return { data: items.map((x) => renderPackage(rq.core, x)), total: str(items.length) };
		},
	},
	'cdn/payFlowBalance': {
		label: 'Traffic balance',
		read: true,
		handler(rq) {
			const b = flowBalance(rq.core, rq.owner);
			return {
				data: {
					free: { total: str(FREE_FLOW), used: str(Math.min(FREE_FLOW, b.f.freeUsed)) },
					buy: { total: str(b.buyTotal), used: str(b.buyTotal - b.buyLeft) },
					month: { total: str(b.f.monthUsed), month: b.f.month },
				},
			};
		},
	},
};

const billRoutes = {
	'cdn/getBillByUser': {
		label: 'Bills by account',
		read: true,
		handler(rq) {
			const { p, core, owner, user } = rq;
			const types = p.array('type', { of: 'string' }) || BILL_SRV_TYPES;
			for (const t of types) if (!BILL_SRV_TYPES.includes(t)) throw new ApiError(`type: ${t} is not one of ${BILL_SRV_TYPES.join(', ')}`);
			const now = core.now();
			const cur = new Date(now);
			const curIndex = cur.getUTCFullYear() * 12 + cur.getUTCMonth();
			const months = p.array('months') || [yyyymm(now)];
			for (const m of months) {
				const s = String(m);
				const ok = /^\d{6}$/.test(s) && Number(s.slice(4)) >= 1 && Number(s.slice(4)) <= 12;
				if (!ok || typeof m === 'boolean' || typeof m === 'object')
					throw new ApiError(`months: ${JSON.stringify(m)} is not a month in the form yyyymm`);
				const idx = Number(s.slice(0, 4)) * 12 + Number(s.slice(4)) - 1;
				if (idx > curIndex) throw new ApiError(`months: ${s} is in the future`);
				if (curIndex - idx > 12) throw new ApiError(`months: ${s} is more than 12 months back; bills reach back 12 months at most`);
			}
			let subUid = p.int('sub_uid', { min: 0 });
			let sub = null;
			if (user.parent) {
				if (subUid && subUid !== user.uid) throw new ApiError('sub_uid: a sub-account may only query its own bill');
				subUid = user.uid;
			}
			if (subUid) {
				sub = core.account(subUid);
				if (!sub || sub.parent !== owner.uid) throw new ApiError(`sub_uid: ${subUid} is not a sub-account of this account`);
			}
			const cfg = sub && Array.isArray(sub.cdnconfig) ? sub.cdnconfig : [];
			const billtypeOf = (srv) => {
				const hit = cfg.find((x) => (x.type === 'live' ? 'rtmp' : x.type) === srv);
				return hit ? hit.billtype : 'flow';
			};
			const channels = slice(core).channels.filter((c) => c.uid === owner.uid && (!subUid || c.sub_uid === subUid));
			const nowS = Math.floor(now / 1000);
			const out = [];
			for (const m of [...new Set(months.map(String))].sort()) {
				for (const srv of types) {
					const mine = channels.filter((c) => serviceTypeOf(c) === srv);
					if (!mine.length) continue;
					const total = mine.reduce((a, c) => a + monthTx(c.id, m, nowS), 0);
					const billtype = billtypeOf(srv);
					out.push({
						billtype,
						billtype_zh: BILLTYPE_ZH[billtype],
						srvtype: srv,
						srvtype_zh: SRV_ZH[srv],
						month: m,
						total_format: formatBytes(total),
						total: str(total),
					});
				}
			}
			return { data: out };
		},
	},
	'cdn/getBillByDomainID': {
		label: 'Bills by channel',
		read: true,
		handler(rq) {
			const { p, core } = rq;
			const channels = channelsParam(rq, 'domain_ids', { required: true });
			const begin = p.int('begintime', { required: true, min: 0 });
			const end = p.int('endtime', { required: true, min: 0 });
			if (begin > end) throw new ApiError('begintime must not be later than endtime');
			if (end - begin > 366 * 86400) throw new ApiError('begintime and endtime may span at most 366 days');
			const nowS = Math.floor(core.now() / 1000);
			let total = 0;
			for (let ts = Math.floor(begin / 3600) * 3600; ts <= end && ts <= nowS; ts += 3600) {
				for (const c of channels) total += hourStats(c.id, ts).tx;
			}
			return { data: [{ billtype: 'flow', total_format: formatBytes(total), total: str(total) }] };
		},
	},
};

module.exports = { flowAccount, consumeTraffic, packageRoutes, billRoutes };
