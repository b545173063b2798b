/**
 * Article catalogs by state. Each state's catalog is one JSON file in this folder
 * (a JSON array of the exact article values); adding a state is dropping its file in
 * and adding one line below. The imports are static so the TypeScript build emits the
 * JSON files into the package next to this module and tests load them the same way.
 */
import KA from './KA.json';

export const ARTICLE_CATALOGS: Readonly<Record<string, readonly string[]>> = {
	KA,
};
