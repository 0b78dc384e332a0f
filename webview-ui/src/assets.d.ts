// Side-effect style imports: esbuild emits them as dist/webview.css.
declare module '*.css';
