export { MAX_REPORT_MARKDOWN, reportHtml } from './report-html.js';
