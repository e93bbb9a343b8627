/**
 * Endpoint declarations: each management endpoint is declared once, here in data, and the
 * node's Resource/Operation dropdowns, its parameters, request building, validation, output,
 * the README tables and the coverage test are all derived from the declaration.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Envelope } from './envelope';

/** How a field is entered in n8n and sent on the wire. */
export type FieldKind =
	| 'string' // one line; sent as a string
	| 'text' // several lines; sent as a string
	| 'secret' // password input; sent as a string
	| 'int' // whole number; sent as a number
	| 'id' // an identifier typed by hand (a filter such as "Recharge ID"): empty and not sent by default; sent as a number
	| 'optionalInt' // a whole number typed as text where a number field would always hold one (a row of More Records): empty and not sent by default
	| 'decimal' // number with decimals; sent as a number
	| 'boolean' // switch; sent as 1 or 0
	| 'options' // one choice; sent as the option's value
	| 'multiOptions' // several choices; sent per `send` (array by default)
	| 'date' // date picker; sent as Y-m-d
	| 'unixTime' // date picker; sent as Unix seconds
	| 'list' // several strings typed one per line or comma-separated; sent per `send`
	| 'locator' // one resource, "From list" or "By ID"; sent as an int id (or per `send`)
	| 'locators' // several resources from a multi-select; sent per `send` (JSON array of ints by default)
	| 'rows' // repeatable groups of sub-fields (fixedCollection); sent via `rows.serialize`
	| 'json'; // a raw JSON object, only where the documents give no shape (docs/vendor/management.md#requests)

/** Wire form of a value. */
export type SendAs = 'string' | 'number' | 'array' | 'intArray' | 'comma';

export interface OptionDecl {
	name: string;
	value: string | number;
	description?: string;
}

/**
 * Checks before sending. Only what the documents state or what is certain is refused
 * (docs/vendor/readings.md#r3); any other limit is a hint in the field's description and
 * the service's own error is shown when it refuses.
 */
export type Validator =
	| { kind: 'ipv4' }
	| { kind: 'ipv6' }
	| { kind: 'ip' }
	| { kind: 'ipOrCidr' } // an IPv4/IPv6 address, optionally with a /prefix
	| { kind: 'ipList' } // comma-separated IPv4/IPv6 addresses
	| { kind: 'domain'; wildcard?: boolean } // wildcard: *.example.com is accepted too
	| { kind: 'hostname' }
	| { kind: 'email' }
	| { kind: 'emailList' }
	| { kind: 'multipleOf'; n: number }
	| { kind: 'above'; n: number } // a number greater than n (an invoice is over an amount above 0)
	| { kind: 'pattern'; regex: string; message: string }
	| { kind: 'port' }
	| { kind: 'timeRanges' } // "hh:mm-hh:mm,hh:mm-hh:mm"
	| { kind: 'months' } // yyyymm, at most 12 months back
	| { kind: 'singleChar' }
	| { kind: 'oneLine' } // a name: no line break (docs/vendor/readings.md#r3)
	| { kind: 'count'; what: string }; // a number of things (alerts, hosts, bytes, minutes, a size): 0 or more; `what` names it ("a number of alerts") (docs/vendor/readings.md#r3)

export interface FieldDecl {
	/** Name on the wire (body key). */
	wire: string;
	/** n8n parameter name; defaults to the camel-cased wire name. */
	param?: string;
	displayName: string;
	kind: FieldKind;
	description?: string;
	/** Required fields are top-level parameters and must be given. */
	required?: boolean;
	/** Optional, but a top-level parameter instead of a member of the optional collection (Filters, Additional Fields...). */
	topLevel?: boolean;
	default?: string | number | boolean | string[] | number[];
	options?: OptionDecl[];
	/** 'options' only: a value outside the list (entered as an expression) is sent as it is instead of refused. */
	allowOtherValues?: boolean;
	/** Options loaded from the service for 'options'/'multiOptions' (a locator key). */
	optionsFrom?: string;
	/** Locator key (see locators.ts) for 'locator' and 'locators'. */
	locator?: string;
	send?: SendAs;
	validate?: Validator[];
	placeholder?: string;
	hint?: string;
	/** 'list' only: entries are separated by new lines only, so commas stay inside an entry (URLs). */
	oneEntryPerLine?: boolean;
	/** 'secret' only: a multi-line password input (PEM private keys). */
	multiline?: boolean;
	/** Only shown when other parameters of the same operation have these values. */
	show?: Record<string, Array<string | number | boolean>>;
	/** Sub-fields of one row, and how the rows become the wire value. */
	rows?: {
		/** Display name of one row, e.g. "Origin". */
		itemName: string;
		fields: FieldDecl[];
		serialize: (rows: IDataObject[]) => unknown;
		min?: number;
	};
	/** A helper parameter that is not sent: it narrows the choices of another field (e.g. the group whose entries are listed), or a list's own filter (`list.keep`). */
	notSent?: boolean;
	/** The first node version that has this field (absent: every version). See "Node versions" in schema/README.md. */
	since?: number;
	/** The last node version that has this field (absent: every later version too). */
	until?: number;
}

/* ------------------------------------------------------------ simplified output */

/** What a simplifier can read besides the record: the request sent and the workflow's time zone. */
export interface SimplifyContext {
	body: IDataObject;
	timeZone: string;
}

/** Reads one simplified value from a service record. */
export type SimpleReader = (record: IDataObject, ctx: SimplifyContext) => unknown;

/** How one simplified field is made (constructors in simplify.ts). */
export interface SimpleField {
	read: SimpleReader;
	/** A coded field: the word goes under the key, the code under `<key>Code`. */
	code?: SimpleReader;
}

/** Output name → how it is made (insertion order is the order of the simplified record). */
export type SimplifySpec = Record<string, SimpleField>;

export interface ResourceDecl {
	value: string;
	name: string;
	description?: string;
}

export interface OperationContext {
	fn: IExecuteFunctions;
	itemIndex: number;
	/** Reads an extra (non-field) parameter such as "Wait for Completion". */
	param<T = unknown>(name: string, fallback?: T): T;
}

/** Work after the call (e.g. a wait until a task finishes), given the records, the item's context and the body sent; may replace the records. */
export type AfterCall = (records: IDataObject[], ctx: OperationContext, body: IDataObject) => Promise<IDataObject[]>;

/** Work just before the request is sent (after the checks and `prepare`), e.g. reading the state a wait compares with afterwards. */
export type BeforeSend = (body: IDataObject, ctx: OperationContext) => Promise<void>;

export interface OperationDecl {
	/** The `endpoint` column of endpoints.tsv this operation implements, verbatim. */
	endpoint: string;
	/** Request path after /API/. */
	path: string;
	resource: string;
	operation: string;
	/**
	 * The collection that holds the optional fields: Filters for lists, otherwise Additional Fields
	 * unless stated (updates say Update Fields). Its name is part of every saved workflow.
	 */
	optionalIn?: 'filters' | 'updateFields' | 'additionalFields';
	/** The first node version that has this operation (absent: every version). */
	since?: number;
	/** The last node version that has this operation. */
	until?: number;
	/** Operation name in the dropdown (Title Case, without the resource): "Get Many". */
	name: string;
	/** The action n8n's panel lists: sentence case, with the resource and the article English needs ("Get many channels", "Create a channel", "Delete channels"); test/descriptions/actions.test.js holds the form. */
	action: string;
	/** One sentence for the dropdown and for AI agents choosing a tool. */
	description: string;
	/** What the operation gives back, for the tool description an AI model reads ("one item per ..."); written from the declaration when absent (tool-text.ts). */
	returns?: string;
	fields?: FieldDecl[];
	/**
	 * A list: Return All + Limit; `paged` lists take page/limit and report totalpage. `keep`: a
	 * filter the node applies itself (the service takes none), from the item's parameters
	 * (`notSent` fields); undefined keeps every record. Limit then counts the records kept, and
	 * pages are read until that many were kept.
	 */
	list?: { paged: boolean; pageSize?: number; keep?: (fn: IExecuteFunctions, itemIndex: number) => ((record: IDataObject) => boolean) | undefined };
	/**
	 * How records are shown when Simplify is on (the default): which fields, under which names,
	 * with words for codes, times and numbers (simplify.ts). Off gives the service's records.
	 */
	simplify?: SimplifySpec;
	/**
	 * Notes about the run, not about each record (the currency the service never names, a code
	 * without a documented meaning): said once per run above the output (n8n's execution hints,
	 * ../notes.ts) when the operation gives records, and in the description an AI model reads.
	 */
	notes?: string[];
	/** Warning shown on destructive operations. */
	notice?: string;
	/** Endpoints called without a token (profile/register). */
	noToken?: boolean;
	/** Constant body fields, e.g. { op: 'start' }. */
	constant?: IDataObject;
	/** A delete: the item says { deleted: true } plus what the service returned. */
	deletes?: boolean;
	/** Turns the envelope into output records (default: data/result, one item per element). */
	output?: (envelope: Envelope) => IDataObject[];
	/** Extra parameters of this operation (e.g. Wait for Completion), shown after the fields. */
	extras?: INodeProperties[];
	/** Last changes to the body before sending (after validation). */
	prepare?: (body: IDataObject, ctx: OperationContext) => IDataObject | Promise<IDataObject>;
	/** Work just before the request is sent, after the checks (e.g. reading the statuses a wait compares with). */
	beforeSend?: BeforeSend;
	/** Work after the call (e.g. wait until a task finishes); may replace the records. */
	after?: AfterCall;
	/** The call only reads: it is repeated after transient failures, and an answer without records gives no item. */
	readOnly?: boolean;
	/**
	 * What it gives depends on the parameters alone, never on the input item (a report): items
	 * that ask for the same get one answer, one output item paired with all of them, and `said`
	 * (of the number of items) is shown once above the output. Without it, a report placed after a
	 * list would run once per listed record (two invoices in, two identical reports out).
	 */
	onceForSameRequest?: { said: (items: number) => string };
	/** Items run one after another whatever "Concurrent Requests" says, because their order matters to the service; `reason` is shown in the option's description. */
	oneItemAtATime?: { reason: string };
	/** The answer is one object (profile/detail): `[]` (an empty object written PHP style) then gives one empty item instead of none. */
	answersOneObject?: boolean;
	/**
	 * An operation that is not one endpoint call (Check Compatibility): runs instead of the
	 * single request and returns the output records. `endpoint` then names what it does.
	 */
	run?: (ctx: OperationContext, body: IDataObject) => Promise<IDataObject[]>;
}

export interface LocatorDecl {
	key: string;
	/** Singular display name: "Channel". */
	label: string;
	/** List endpoint that supplies the choices. */
	path: string;
	paged: boolean;
	idField?: string;
	/** Display name of one record. */
	name: (row: IDataObject) => string;
	/** Server-side name filter parameter, when the list endpoint has one. */
	filterParam?: string;
	/** Extra body fields, e.g. the data center chosen in another parameter. */
	body?: (current: (name: string) => unknown) => IDataObject;
	/** Records from the envelope when not data/result rows. */
	rows?: (envelope: Envelope) => IDataObject[];
	/** Regex an id typed "By ID" must match. */
	idPattern?: string;
	/**
	 * What else people call a record, looked up at run time when the input is not an ID
	 * (resolve.ts): the record fields compared (exactly, ignoring case; arrays such as `ips`
	 * by element) and how to say them ("a name, an instance ID or an IP address").
	 */
	resolve?: { fields: string[]; what: string; example?: string };
	/** The value a record stands for when it is not a field of the record (undefined: not offered). */
	value?: (row: IDataObject) => string | undefined;
	/** Text shown under "By ID", e.g. "e.g. 12". */
	idPlaceholder?: string;
	/** What "By ID" takes when it is not an ID, e.g. "Code" (the mode is then "By Code"). */
	idName?: string;
}

export interface ApiArea {
	/** Node short name, e.g. vendorCdn. */
	node: string;
	/**
	 * The node versions n8n serves, oldest first; new workflows get the newest. A change that would
	 * alter a saved workflow adds a version (schema/README.md).
	 */
	versions: number[];
	/** The resource a new node shows. Stated, never taken from the order of `resources`. */
	defaultResource: string;
	/** The operation a new node shows, per resource. Stated, never taken from the order of `operations`. */
	defaultOperations: Record<string, string>;
	resources: ResourceDecl[];
	operations: OperationDecl[];
}

export type { INodePropertyOptions };
