export * from './states';
export { getArticles, articleIssue, hasStampActNumber } from './articles';
