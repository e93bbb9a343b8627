'use strict';
/**
 * Group `profile` (see ../account.js): the routes of recharges, the balance and its alarm,
 * payments, invoices and coupons.
 */
const { ApiError, pageOf, str, displayTime, money } = require('../util');
const { RECHARGE_TYPES, PAY_TYPES, PAY_PAYTYPES, PHONE_RE, slice } = require('./model');
const { couponStatus, couponBalance, invoiceBalance } = require('./billing');

const rechargeRoutes = {
	'profile/rechargeList': {
		label: 'List recharges',
		read: true,
		logType: 'finance',
		handler(rq) {
			const { p, core, owner } = rq;
			const id = p.int('id');
			const type = p.has('type') ? p.oneOf('type', [1, 2, 3, 4, 5]) : undefined;
			const items = slice(core)
				.recharges.filter((r) => r.uid === owner.uid && (id === undefined || r.id === id) && (type === undefined || r.type === type))
				.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
			return pageOf(items, p, {
				render: (r) => ({
					id: str(r.id),
					name: owner.name,
					uid: str(r.uid),
					price: r.price,
					code: r.code,
					type_zh: RECHARGE_TYPES[r.type],
					status: str(r.status),
					...core.stamp(r.createdAt, 'createtime'),
				}),
			});
		},
	},
	'profile/balance': {
		label: 'Balance',
		read: true,
		logType: 'finance',
		handler(rq) {
			return { data: [{ price: rq.core.balanceOf(rq.owner.uid).price }], total: '1' };
		},
	},
	'profile/balanceAlarm': {
		label: 'Set balance alarm',
		logType: 'finance',
		handler(rq) {
			const { p, core, owner } = rq;
			const bal = core.balanceOf(owner.uid);
			// the documentation marks none of alarm, alarm_num, alarm_value required: one left out
			// keeps the account's value (a new threshold leaves the alarm on or off as it is)
			const alarm = p.has('alarm') ? p.oneOf('alarm', [0, 1]) : Number(bal.alarm);
			const alarmNum = p.int('alarm_num', { min: 0, max: 100 });
			const alarmValue = p.decimal('alarm_value', { min: 0 });
			if (!p.has('alarm') && alarmNum === undefined && alarmValue === undefined) throw new ApiError('nothing to set: send alarm, alarm_num or alarm_value');
			if (alarm === 1 && alarmValue === undefined && Number(bal.alarm_value) <= 0)
				throw new ApiError('alarm_value is required to switch the alarm on');
			bal.alarm = str(alarm);
			if (alarmNum !== undefined) bal.alarm_num = str(alarmNum);
			else if (alarm === 1 && bal.alarm_num === '0') bal.alarm_num = '1';
			if (alarmValue !== undefined) bal.alarm_value = money(alarmValue);
			bal.send_num = '0';
			return { data: { alarm: bal.alarm, alarm_num: bal.alarm_num, alarm_value: bal.alarm_value } };
		},
	},
	'profile/payList': {
		label: 'List payments',
		read: true,
		logType: 'finance',
		handler(rq) {
			const { p, core, owner } = rq;
			const type = p.has('type') ? p.oneOf('type', [1, 2, 3, 4]) : undefined;
			const paytype = p.has('paytype') ? p.oneOf('paytype', [1, 2, 3, 5, 6, 7, 8, 9]) : undefined;
			const bid = p.int('bid');
			const items = core.state.payments
				.filter(
					(r) =>
						r.uid === owner.uid &&
						(type === undefined || Number(r.type) === type) &&
						(paytype === undefined || Number(r.paytype) === paytype) &&
						(bid === undefined || Number(r.bid) === bid),
				)
				.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
			return pageOf(items, p, {
				render: (r) => ({
					id: str(r.id),
					uid: str(r.uid),
					name: r.name,
					code: r.code,
					type_zh: PAY_TYPES[r.type] || '',
					paytype_zh: PAY_PAYTYPES[r.paytype] || '',
					price: money(r.price),
					status: str(r.status),
					...core.stamp(r.createdAt),
				}),
			});
		},
	},
};

const invoiceRoutes = {
	'profile/invoiceList': {
		label: 'List invoices',
		read: true,
		logType: 'finance',
		handler(rq) {
			const items = slice(rq.core)
				.invoices.filter((i) => i.uid === rq.owner.uid)
				.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
			return pageOf(items, rq.p, { render: (i) => renderInvoice(rq.core, i) });
		},
	},
	'profile/invoiceApply': {
		label: 'Apply for invoice',
		logType: 'finance',
		handler(rq) {
			const { p, core, owner } = rq;
			const title = p.str('title', { required: true, max: 128 }).trim();
			const price = p.decimal('price', { required: true });
			if (!(price > 0)) throw new ApiError('price must be greater than 0');
			const type = p.oneOf('type', [1, 2], { required: true });
			const invoicetype = p.oneOf('invoicetype', [1, 2], { required: true });
			const fields = {};
			for (const f of [
				'registerno',
				'bankname',
				'card',
				'address',
				'tel',
				'businesslicense',
				'taxcertificate',
				'taxatorqual',
				'recipients',
				'mailaddress',
				'phone',
				'postcode',
			]) {
				fields[f] = p.str(f, { max: 255, def: '' });
			}
			if (invoicetype === 1) {
				if (type !== 1) throw new ApiError('invoicetype 1 (special VAT invoice) needs type 1 (enterprise)');
				for (const f of ['registerno', 'bankname', 'card'])
					if (!fields[f]) throw new ApiError(`${f} is required for a special VAT invoice`);
			}
			if (fields.phone && !PHONE_RE.test(fields.phone)) throw new ApiError('phone is not a valid phone number');
			const available = invoiceBalance(core, owner);
			if (price > available + 1e-9) throw new ApiError(`price ${money(price)} exceeds the invoice balance ${money(available)}`);
			const inv = {
				id: core.nextId('invoice'),
				uid: owner.uid,
				title,
				price: money(price),
				type,
				invoicetype,
				status: 0,
				expressname: '',
				expresscode: '',
				content: 'Cloud service fee',
				fees: '0.00',
				express: '',
				platform: '2',
				...fields,
				createdAt: core.now(),
			};
			slice(core).invoices.push(inv);
			return {
				data: {
					...renderInvoice(core, inv),
					registerno: inv.registerno,
					bankname: inv.bankname,
					card: inv.card,
					address: inv.address,
					tel: inv.tel,
					businesslicense: inv.businesslicense,
					taxcertificate: inv.taxcertificate,
					taxatorqual: inv.taxatorqual,
					fees: inv.fees,
					express: inv.express,
					recipients: inv.recipients,
					phone: inv.phone,
					postcode: inv.postcode,
					platform: inv.platform,
					username: owner.name,
				},
			};
		},
	},
	'profile/invoiceBalance': {
		label: 'Invoice balance',
		read: true,
		logType: 'finance',
		handler(rq) {
			return { data: { invoiceprice: money(invoiceBalance(rq.core, rq.owner)) } };
		},
	},
};

const couponRoutes = {
	'profile/couponList': {
		label: 'List coupons',
		read: true,
		logType: 'finance',
		handler(rq) {
			const { p, core, owner } = rq;
			const couponid = p.str('couponid', { max: 64 });
			const status = p.has('status') ? p.oneOf('status', [0, 1, 2, 3, 4]) : undefined;
			const items = slice(core)
				.coupons.filter(
					(c) =>
						c.uid === owner.uid &&
						(couponid === undefined || c.couponid.toLowerCase() === couponid.trim().toLowerCase()) &&
						(status === undefined || couponStatus(core, c) === status),
				)
				.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
			return pageOf(items, p, {
				render: (c) => ({
					id: str(c.id),
					uid: str(c.uid),
					couponid: c.couponid,
					status: str(couponStatus(core, c)),
					price: c.price,
					priceover: c.priceover,
					...core.stamp(c.createdAt),
					endtime: c.endAt ? displayTime(c.endAt) : '',
				}),
			});
		},
	},
	'profile/couponExchange': {
		label: 'Exchange coupon',
		// Without couponid this is the coupon-balance query (a read); the exchange logs itself.
		read: true,
		logType: 'finance',
		handler(rq) {
			const { p, core, owner, user } = rq;
			if (!p.has('couponid')) return { data: couponBalance(core, owner) };
			const code = p.str('couponid', { max: 64 }).trim();
			const c = slice(core).coupons.find((x) => x.couponid.toLowerCase() === code.toLowerCase() && (x.uid === 0 || x.uid === owner.uid));
			if (!c) throw new ApiError(`couponid: coupon ${code} does not exist`);
			const status = couponStatus(core, c);
			const why = { 1: 'has already been activated', 2: 'has already been used', 3: 'is void', 4: 'has expired' }[status];
			if (why) throw new ApiError(`couponid: coupon ${code} ${why}`);
			c.status = 1;
			c.uid = owner.uid;
			core.log(user, 'finance', 'Exchange coupon', JSON.stringify({ couponid: code }), rq.ip, rq.path);
			return { data: { name: c.name, price: c.price } };
		},
	},
};

function renderInvoice(core, i) {
	return {
		id: str(i.id),
		uid: str(i.uid),
		title: i.title,
		price: i.price,
		type: str(i.type),
		invoicetype: str(i.invoicetype),
		status: str(i.status),
		expressname: i.expressname,
		expresscode: i.expresscode,
		mailaddress: i.mailaddress || '',
		content: i.content,
		...core.stamp(i.createdAt),
	};
}

module.exports = { rechargeRoutes, invoiceRoutes, couponRoutes };
