'use strict';
/**
 * Group `dns` of the management interface (docs/vendor/hosts-network-dns.md): plans, domains,
 * records, downtime monitors with their monitor records, strategy templates with template
 * records, and resolution strategies.
 *
 * The group's code lives in dns/: model.js (plan catalogue, record lines, state slice, parameter
 * checks, look-ups), fields.js (record validation, monitor upkeep, fields of monitors, template
 * records and strategies, domain and record making, plan orders), render.js (answers),
 * routes-domains.js, routes-monitors.js and routes-strategies.js (the route tables, merged below
 * in this order) and control.js (init, demo data, control routes).
 *
 * Choices where the documents are silent (the emulator's, not the vendor's):
 *  - Plans are a fixed catalogue (Free, Personal, Business, Enterprise); prices are per year
 *    and domainAdd / domainUpgrade charge price × period with paytype 7 and bid = domain id.
 *    The serialized lists of a plan (strategy, monitor_retry, monitor_interval,
 *    monitor_notice) use PHP serialize() notation. A plan's `auth` is the caller's latest
 *    domain on that plan, or null when there is none.
 *  - Plan limits are enforced: record_num per domain, monitor_num per domain, strategy_num
 *    per domain, strategy_template_num per plan and account; strategies need
 *    enable_strategy 1 and a sty among the plan's `strategy`; monitor retry and interval
 *    must be among the plan's monitor_retry / monitor_interval.
 *  - A domain name is hosted once across all accounts. Domains are created with status 1.
 *  - Record lines: default, telecom, unicom, mobile, edu, overseas, search (`locale` is the
 *    line's display name, `real_locale` its code); an empty line is `default`. The documents
 *    name no line: dialect dnsLinesOwn plays a service whose lines are its own values in its
 *    language (默认, 电信, 联通, 移动, 教育网, 境外, 搜索引擎; docs/vendor/readings.md#r69), which
 *    refuses the words above. subdomain '' means '@'. ttl defaults to
 *    300, weight to 1, mx to 10 for MX (mx is '0' on other types). A CNAME cannot share a
 *    subdomain and line with any other record; an identical record cannot be added twice.
 *  - recordAdd entries: `subdomain;recordtype;recordline;value[;mx[;ttl[;weight]]]`; an entry
 *    with more than 7 fields keeps the extra `;` inside the value (TXT such as DKIM).
 *  - recordUpdate keeps the fields that are not sent.
 *  - Monitor records: one per A/AAAA record of the monitored subdomain, kept in step as
 *    records come and go. monitorStatus `record_id` names monitor record ids of that monitor
 *    (all of them when absent) and sets them and the monitor to `status`.
 *  - Monitor `notify` is a notification method (docs/vendor/readings.md#r62): one of the
 *    plan's monitor_notice values (several comma-separated are taken); addresses go in
 *    other_email / other_phone.
 *  - tempStyDelete answers the deleted template record's id as the `data` string.
 *  - domainList `type` is '1' (authoritative hosting).
 */
const { domainRoutes, recordRoutes } = require('./dns/routes-domains');
const { monitorRoutes } = require('./dns/routes-monitors');
const { templateRoutes, strategyRoutes } = require('./dns/routes-strategies');
const { init, seedDemo, control } = require('./dns/control');

const routes = {
	...domainRoutes,
	...recordRoutes,
	...monitorRoutes,
	...templateRoutes,
	...strategyRoutes,
};

module.exports = {
	group: 'dns',
	name: 'Cloud DNS',
	init,
	seedDemo,
	routes,
	control,
};
