/** Types of webview-themes.mjs for the TypeScript scripts. */
export declare const THEMES: Record<string, { bodyClass: string; vars: Record<string, string> }>;
