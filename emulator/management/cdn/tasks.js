'use strict';
/**
 * Content delivery: refresh and prefetch tasks. How a task is submitted, written in answers and
 * found, and its routes: list, refresh, prefetch, again by id, status, delete.
 */
const { ApiError, pageOf, str, displayTime } = require('../util');
const { slice, hostMatches, channelsOf, channelsParam } = require('./model');

// ---------------------------------------------------------------- refresh and prefetch

function taskState(core, t) {
	if (core.now() < t.readyAt) return 'processing';
	return t.failed ? 'failed' : 'success';
}

function renderTask(core, t) {
	// dialect failedTasksListedRunning (docs/vendor/readings.md#r59): the documents give a task's
	// listed status only as 0 refreshing, 1 completed; this service never lists a failed task as
	// completed, it stays 0 while the status query says `failed`
	const listedRunning = core.now() < t.readyAt || (t.failed && core.emu.dialects && core.emu.dialects.has('failedTasksListedRunning'));
	return {
		id: str(t.id),
		type: t.type,
		status: listedRunning ? '0' : '1',
		urls: [...t.urls],
		preload: t.kind === 'preload' ? '1' : '0',
		preloadtype: str(t.preloadtype),
		is_api: '1',
		created: displayTime(t.createdAt),
		objectnum: str(t.urls.length),
	};
}

function readUrls(p, type) {
	const raw = p.str('urls', { required: true, max: 100000 });
	let sep = ',';
	if (p.has('partition')) {
		sep = p.str('partition');
		if (sep.length > 1) throw new ApiError('partition must be at most one character');
	}
	const urls = raw
		.split(sep)
		.map((u) => u.trim())
		.filter(Boolean);
	if (!urls.length) throw new ApiError('urls must hold at least one URL');
	if (urls.length > 100) throw new ApiError('urls may hold at most 100 URLs per task');
	for (const u of urls) {
		let parsed;
		try {
			parsed = new URL(u);
		} catch {
			throw new ApiError(`urls: ${u} is not a valid URL`);
		}
		if (!['http:', 'https:'].includes(parsed.protocol)) throw new ApiError(`urls: ${u} must be an http or https URL`);
		if (type === 'dir' && !parsed.pathname.endsWith('/')) throw new ApiError(`urls: ${u} must end with / when type is dir`);
	}
	return urls;
}

function submitTask(rq, { kind, type, urls, preloadtype = 0 }) {
	const { core, user, owner } = rq;
	const mine = channelsOf(rq);
	const failed = urls.some((u) => {
		const host = new URL(u).hostname;
		return !mine.some((c) => hostMatches(c.name, host));
	});
	const now = core.now();
	const t = {
		id: core.nextId('task'),
		uid: owner.uid,
		sub_uid: user.parent ? user.uid : 0,
		kind,
		type,
		urls,
		preloadtype,
		createdAt: now,
		readyAt: now + core.timing('taskDelayMs', 3000),
		failed,
	};
	slice(core).tasks.push(t);
	return t;
}

function taskById(rq, id, kind, param = 'id') {
	const t = slice(rq.core).tasks.find((x) => x.id === Number(id) && x.uid === rq.owner.uid && (!kind || x.kind === kind));
	if (!t) throw new ApiError(`${param}: ${kind || ''}${kind ? ' ' : ''}task ${id} does not exist`);
	return t;
}

function rerun(rq, kind) {
	const t = taskById(rq, rq.p.int('id', { required: true }), kind);
	return { data: renderTask(rq.core, submitTask(rq, { kind, type: t.type, urls: [...t.urls], preloadtype: t.preloadtype })) };
}

function statusOf(rq, kind) {
	const ids = rq.p.idList('id', { required: true });
	const out = {};
	for (const id of ids) out[String(id)] = taskState(rq.core, taskById(rq, id, kind));
	return { data: [out] };
}

const taskRoutes = {
	'cdn/refreshList': {
		label: 'List refresh and prefetch tasks',
		read: true,
		handler(rq) {
			const { p, core } = rq;
			const channels = p.has('domain_ids') ? channelsParam(rq, 'domain_ids') : null;
			const preload = p.has('preload') ? p.oneOf('preload', [0, 1]) : undefined;
			const type = p.has('type') ? p.oneOf('type', ['file', 'dir']) : undefined;
			const items = slice(core)
				.tasks.filter(
					(t) =>
						t.uid === rq.owner.uid &&
						(preload === undefined || (t.kind === 'preload' ? 1 : 0) === preload) &&
						(type === undefined || t.type === type) &&
						(!channels || t.urls.some((u) => channels.some((c) => hostMatches(c.name, new URL(u).hostname)))),
				)
				.sort((a, b) => b.id - a.id);
			return pageOf(items, p, { render: (t) => renderTask(core, t) });
		},
	},
	'cdn/refresh': {
		label: 'Refresh cache',
		handler(rq) {
			const { p, core } = rq;
			if (p.has('id') && !p.has('urls')) return rerun(rq, 'refresh');
			const type = p.oneOf('type', ['file', 'dir'], { required: true });
			const urls = readUrls(p, type);
			return { data: renderTask(core, submitTask(rq, { kind: 'refresh', type, urls })) };
		},
	},
	'cdn/refreshById': {
		label: 'Refresh cache again',
		handler: (rq) => rerun(rq, 'refresh'),
	},
	'cdn/refreshStatus': {
		label: 'Refresh status',
		read: true,
		handler: (rq) => statusOf(rq, 'refresh'),
	},
	'cdn/preload': {
		label: 'Prefetch',
		handler(rq) {
			const { p, core } = rq;
			const preloadtype = p.has('preloadtype') ? p.oneOf('preloadtype', [0, 1]) : 1;
			const urls = readUrls(p, 'file');
			return { data: renderTask(core, submitTask(rq, { kind: 'preload', type: 'file', urls, preloadtype })) };
		},
	},
	'cdn/preloadById': {
		label: 'Prefetch again',
		handler: (rq) => rerun(rq, 'preload'),
	},
	'cdn/preloadStatus': {
		label: 'Prefetch status',
		read: true,
		handler: (rq) => statusOf(rq, 'preload'),
	},
	'cdn/refreshDelete': {
		label: 'Delete refresh and prefetch tasks',
		handler(rq) {
			const ids = rq.p.array('ids', { required: true, of: 'int' });
			if (!ids.length) throw new ApiError('ids must hold at least one task id');
			const tasks = [...new Set(ids)].map((id) => taskById(rq, id, null, 'ids'));
			const drop = new Set(tasks);
			slice(rq.core).tasks = slice(rq.core).tasks.filter((t) => !drop.has(t));
			return { data: tasks.map((t) => ({ id: str(t.id), urls: [...t.urls] })) };
		},
	},
};

module.exports = { taskRoutes };
