import type { IDataObject } from 'n8n-workflow';

import { API_CREDENTIAL, encodePassword } from '../../shared/api/auth';
import { noDataRecord } from '../../shared/api/output';
import type { OperationDecl } from '../../shared/api/declarations';
import { REPORT_SENDING, YES_NO } from '../../shared/api/codes';
import { checked, choice, nameStr, required, secret, str, topLevel } from '../../shared/api/fields';
import { CURRENCY_NOT_NAMED, computed, field, flag, number } from '../../shared/api/simplify';
import { checkCompatibility } from '../compatibility/check';

/** Contact and notification fields of profile/update (the account's own profile). */
export const profileFields = [
	nameStr('contactname', 'Contact Name'),
	str('tel', 'Telephone'),
	str('fax', 'Fax'),
	str('card', 'ID Card Number'),
	str('address', 'Address'),
	str('company', 'Company'),
	str('business', 'Business', 'Line of business'),
	str('website', 'Website', 'Company website, e.g. https://example.com'),
	choice('recieve_mail', 'Receive Mail', YES_NO, 'Whether notifications are sent by e-mail', { default: 1 }),
	choice('recieve_sms', 'Receive SMS', YES_NO, 'Whether notifications are sent by SMS', { default: 1 }),
	checked(str('other_mail', 'Other E-Mails', 'Further notification addresses, comma-separated'), { kind: 'emailList' }),
	str('other_phone', 'Other Phones', 'Further notification phone numbers, comma-separated; the service decides which forms it accepts'),
	choice('daily_report', 'Daily Report', REPORT_SENDING, 'Whether the daily report is sent', { default: 1 }),
	choice('week_report', 'Weekly Report', REPORT_SENDING, 'Whether the weekly report is sent', { default: 1 }),
	choice('month_report', 'Monthly Report', REPORT_SENDING, 'Whether the monthly report is sent', { default: 1 }),
];

export const accountOperations: OperationDecl[] = [
	{
		endpoint: 'profile/register',
		path: 'profile/register',
		resource: 'account',
		operation: 'register',
		name: 'Register',
		action: 'Register an account',
		description: 'Create a new vendor account with a username, password and e-mail address',
		noToken: true,
		fields: [
			required(nameStr('username', 'Username', 'Name of the new account; the service sets the rules (often up to 32 letters, digits or _)')),
			required(secret('password', 'Password', 'Password of the new account; it is sent twice as the service asks, and the service sets the rules')),
			// the vendor's documentation does not mark it required (its name is only in the example, readings R52): sent when given
			topLevel(checked(str('mail', 'E-Mail', 'E-mail address of the new account; not sent when empty (the service may ask for one)', { placeholder: 'e.g. name@example.com' }), { kind: 'email' })),
			str('phone', 'Phone', 'Mobile phone number'),
		],
		prepare: (body) => ({ ...body, confirm_password: body.password }),
	},
	{
		endpoint: 'OAuth/authorize',
		path: 'OAuth/authorize',
		resource: 'account',
		operation: 'logIn',
		name: 'Log In',
		action: 'Log in to check the account',
		description: "Log in with the credential's username and password and report what the service answered, such as the token lifetime (expires); the token itself is never shown",
		noToken: true,
		readOnly: true,
		oneItemAtATime: { reason: 'log-ins are made one after another' },
		prepare: async (_body, ctx) => {
			const credentials = await ctx.fn.getCredentials(API_CREDENTIAL);
			return {
				username: String(credentials.username ?? ''),
				password: encodePassword(String(credentials.password ?? ''), credentials.loginEncoding),
			};
		},
		// the answer as it came (expires, message, created, ...) without the code and the token
		output: (envelope) => [noDataRecord(envelope)],
	},
	{
		// not one endpoint: reads of several (see compatibility.ts); no row of endpoints.tsv
		endpoint: 'compatibility check: OAuth/authorize twice and reads only',
		path: '',
		resource: 'account',
		operation: 'checkCompatibility',
		name: 'Verify Compatibility',
		action: 'Verify compatibility with the service',
		description:
			'Find how the service writes its answers and which credential settings to use: makes reads only, plus one request that names no disk (to see which path detaches a cloud disk) and two log-ins (a second log-in may end earlier tokens on some services; the node then logs in again by itself). One item per finding.',
		readOnly: true,
		oneItemAtATime: { reason: 'each check logs in and reads on its own; run one at a time' },
		run: (ctx) => checkCompatibility(ctx),
	},
	{
		endpoint: 'profile/detail',
		path: 'profile/detail',
		resource: 'account',
		operation: 'get',
		name: 'Get',
		action: 'Get account details',
		description: 'Get the account with its profile, balance, coupon amount and sub-accounts',
		readOnly: true,
		answersOneObject: true,
		notes: [CURRENCY_NOT_NAMED],
		simplify: {
			id: field('uid'),
			username: field('name'),
			email: field('mail'),
			// no documented meaning for the account's own status (docs/vendor/readings.md#r5): shown as it came
			status: field('status'),
			balance: number('balance.price'),
			couponBalance: number('couponprice'),
			balanceAlarm: flag('balance.alarm'),
			alarmThreshold: number('balance.alarm_value'),
			alarmCount: number('balance.alarm_num'),
			sendNum: number('balance.send_num'),
			contactName: field('profile.contactname'),
			company: field('profile.company'),
			phone: field('profile.phone'),
			subAccounts: computed((r) => (Array.isArray(r.subaccounts) ? (r.subaccounts as IDataObject[]).map((a) => a.name as string) : undefined)),
		},
	},
	{
		endpoint: 'profile/update',
		path: 'profile/update',
		resource: 'account',
		operation: 'updateProfile',
		optionalIn: 'updateFields',
		name: 'Update Profile',
		action: 'Update the account profile',
		description: 'Change contact details and notification settings of the account',
		fields: profileFields,
	},
	{
		endpoint: 'profile/pictureUpdate',
		path: 'profile/pictureUpdate',
		resource: 'account',
		operation: 'updatePicture',
		name: 'Update Picture',
		action: 'Update the account picture',
		description: 'Set the address of the account avatar',
		fields: [required(str('picture', 'Avatar Address', 'Address of the avatar image', { placeholder: 'e.g. https://example.com/me.png' }))],
	},
	{
		endpoint: 'profile/passwordUpdate',
		path: 'profile/passwordUpdate',
		resource: 'account',
		operation: 'updatePassword',
		name: 'Update Password',
		action: 'Update the account password',
		description: 'Change the password; update the Vendor API credential afterwards',
		notice: 'After changing the password, update it in the Vendor API credential too, or later runs cannot log in',
		oneItemAtATime: { reason: 'each change of the password must follow the one before it' },
		fields: [
			required(secret('old_password', 'Current Password')),
			required(secret('new_password', 'New Password', 'The new password; it is sent twice as the service asks')),
		],
		prepare: (body) => ({ ...body, new_password2: body.new_password }),
	},
	{
		endpoint: 'profile/mailUpdate',
		path: 'profile/mailUpdate',
		resource: 'account',
		operation: 'updateMail',
		name: 'Update E-Mail',
		action: 'Update the account e-mail',
		description: 'Change the e-mail address of the account',
		fields: [required(checked(str('mail', 'E-Mail', 'New e-mail address', { placeholder: 'e.g. name@example.com' }), { kind: 'email' }))],
	},
	{
		endpoint: 'profile/phoneUpdate',
		path: 'profile/phoneUpdate',
		resource: 'account',
		operation: 'updatePhone',
		name: 'Update Phone',
		action: 'Update the account phone',
		description: 'Change the mobile phone number of the account',
		fields: [required(str('phone', 'Phone', 'New mobile phone number, e.g. +1 555 0100; the service decides which forms it accepts'))],
	},
];
