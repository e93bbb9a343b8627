'use strict';
/**
 * Content delivery: certificates. How a certificate is read (PEM, names) and written in
 * answers, and its routes: list, add, update, delete.
 */
const crypto = require('node:crypto');
const { ApiError, pageOf, str } = require('../util');
const { accountName } = require('../common');
const { slice } = require('./model');

// ---------------------------------------------------------------- certificates

const CERT_RE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;
const KEY_RE = /-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----[\s\S]+?-----END (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/;

/**
 * commonname and subjectAltName of a certificate: a real X.509 certificate is read with
 * node:crypto; otherwise `CN=<name>` and `DNS:<name>` markers in the text count; otherwise
 * the certificate's name.
 */
function certNames(crt, fallback) {
	try {
		const x = new crypto.X509Certificate(crt);
		const cn = /(?:^|\n)CN=([^\n]+)/.exec(x.subject);
		const sans = (x.subjectAltName || '')
			.split(',')
			.map((s) => s.trim())
			.filter((s) => s.startsWith('DNS:'))
			.map((s) => s.slice(4));
		const commonname = cn ? cn[1].trim() : sans[0] || fallback;
		return { commonname, subjectAltName: sans.length ? sans : [commonname] };
	} catch {
		const cn = /CN\s*=\s*([A-Za-z0-9*._-]+)/.exec(crt);
		const sans = [...crt.matchAll(/DNS:\s*([A-Za-z0-9*._-]+)/g)].map((m) => m[1]);
		const commonname = cn ? cn[1] : sans[0] || fallback;
		return { commonname, subjectAltName: sans.length ? [...new Set(sans)] : [commonname] };
	}
}

function readPem(p, name, re, what, required) {
	const v = p.str(name, { required, max: 100000 });
	if (v === undefined) return undefined;
	if (!re.test(v))
		throw new ApiError(
			`${name} must hold ${what} in PEM form (-----BEGIN ${what === 'a private key' ? 'PRIVATE KEY' : 'CERTIFICATE'}-----)`,
		);
	return v;
}

function renderCert(core, x) {
	return {
		id: str(x.id),
		uid: str(x.uid),
		username: accountName(core, x.uid),
		name: x.name,
		commonname: x.commonname,
		subjectAltName: [...x.subjectAltName],
		...core.stamp(x.createdAt, 'createtime'),
	};
}

function certById(rq, id) {
	const x = slice(rq.core).certs.find((c) => c.id === Number(id) && c.uid === rq.owner.uid);
	if (!x) throw new ApiError(`id: certificate ${id} does not exist`);
	return x;
}

const certificateRoutes = {
	'cdn/sslList': {
		label: 'List certificates',
		read: true,
		handler(rq) {
			const id = rq.p.int('id');
			const items = slice(rq.core)
				.certs.filter((x) => x.uid === rq.owner.uid && (id === undefined || x.id === id))
				.sort((a, b) => b.id - a.id);
			return pageOf(items, rq.p, { render: (x) => renderCert(rq.core, x) });
		},
	},
	'cdn/sslAdd': {
		label: 'Add certificate',
		handler(rq) {
			const { p, core, owner } = rq;
			const name = p.str('name', { required: true, max: 128 }).trim();
			if (slice(core).certs.some((x) => x.uid === owner.uid && x.name === name))
				throw new ApiError(`name: a certificate named ${name} already exists`);
			const ssl_crt = readPem(p, 'ssl_crt', CERT_RE, 'a certificate', true);
			const ssl_key = readPem(p, 'ssl_key', KEY_RE, 'a private key', true);
			const ssl_ca = readPem(p, 'ssl_ca', CERT_RE, 'a certificate', false) || '';
			const x = {
				id: core.nextId('cert'),
				uid: owner.uid,
				name,
				ssl_crt,
				ssl_key,
				ssl_ca,
				...certNames(ssl_crt, name),
				createdAt: core.now(),
			};
			slice(core).certs.push(x);
			return { data: { id: str(x.id), name: x.name, commonname: x.commonname, subjectAltName: [...x.subjectAltName] } };
		},
	},
	'cdn/sslUpdate': {
		label: 'Update certificate',
		handler(rq) {
			const { p, core, owner } = rq;
			const x = certById(rq, p.int('id', { required: true }));
			const name = p.has('name') ? p.str('name', { max: 128 }).trim() : x.name;
			if (slice(core).certs.some((o) => o !== x && o.uid === owner.uid && o.name === name))
				throw new ApiError(`name: a certificate named ${name} already exists`);
			const ssl_crt = readPem(p, 'ssl_crt', CERT_RE, 'a certificate', false);
			const ssl_key = readPem(p, 'ssl_key', KEY_RE, 'a private key', false);
			const ssl_ca = readPem(p, 'ssl_ca', CERT_RE, 'a certificate', false);
			x.name = name;
			if (ssl_crt) x.ssl_crt = ssl_crt;
			if (ssl_key) x.ssl_key = ssl_key;
			if (ssl_ca) x.ssl_ca = ssl_ca;
			Object.assign(x, certNames(x.ssl_crt, x.name));
			return { data: { id: str(x.id), name: x.name, commonname: x.commonname, subjectAltName: [...x.subjectAltName] } };
		},
	},
	'cdn/sslDelete': {
		label: 'Delete certificate',
		handler(rq) {
			const x = certById(rq, rq.p.int('id', { required: true }));
			const users = slice(rq.core).channels.filter((c) => c.sslconf_id === x.id);
			if (users.length) throw new ApiError(`id: certificate ${x.id} is used by channel ${users.map((c) => c.name).join(', ')}`);
			slice(rq.core).certs = slice(rq.core).certs.filter((o) => o !== x);
			return { data: { id: str(x.id), name: x.name } };
		},
	},
};

module.exports = { certNames, certificateRoutes };
