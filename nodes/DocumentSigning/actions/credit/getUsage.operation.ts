import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { CreditUsageQuerySchema } from '../../../shared/api/schemas';
import { validateInput } from '../../../shared/api/validation';
import { callApi, operationPanel } from '../shared/operation';

const properties: INodeProperties[] = [
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		default: '',
		description: 'First day of the period (YYYY-MM-DD). Empty: 29 days before the end date.',
	},
	{
		displayName: 'End Date',
		name: 'endDate',
		type: 'dateTime',
		default: '',
		description: 'Last day of the period, included (YYYY-MM-DD). Empty: today.',
	},
];

export const description = operationPanel('credit', 'getUsage', properties);

/**
 * A day as YYYY-MM-DD. The date picker gives `2026-11-01T00:00:00`; an expression may give
 * a Luxon DateTime or `2026-11-01`. Anything else is passed on for the schema to name.
 */
export function toDay(value: unknown): unknown {
	if (
		value &&
		typeof value === 'object' &&
		typeof (value as { toISODate?: unknown }).toISODate === 'function'
	) {
		return (value as { toISODate: () => string }).toISODate();
	}
	if (typeof value !== 'string') return value;
	const text = value.trim();
	const day = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(
		text,
	);
	return day ? day[1] : text;
}

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const query: IDataObject = {};
	for (const name of ['startDate', 'endDate']) {
		const day = toDay(this.getNodeParameter(name, i, ''));
		if (day !== '' && day !== undefined && day !== null) query[name] = day as string;
	}
	validateInput(this, CreditUsageQuerySchema, query, i, 'usage period');
	return [{ json: await callApi.call(this, i, 'GET', apiPath('creditUsage'), { qs: query }) }];
}
