/** Styles of the run panel: a drawer on the right on wide screens, a bottom sheet on narrow ones. */
export const PANEL_CSS = `
#pp-runner{position:fixed;top:0;right:0;bottom:0;width:min(620px,100vw);z-index:2147483000;display:flex;
flex-direction:column;background:#fff;color:#1f2430;border-left:1px solid #d6dae3;box-shadow:-8px 0 24px rgba(0,0,0,.12);
font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
#pp-runner[hidden]{display:none}
#pp-runner *{box-sizing:border-box}
#pp-runner header{display:flex;align-items:center;gap:8px;padding:10px 14px;border-bottom:1px solid #e3e6ee}
#pp-runner header h2{flex:1;margin:0;font-size:16px;font-weight:600;overflow-wrap:anywhere}
#pp-runner .pp-bar{display:flex;flex-wrap:wrap;align-items:center;gap:6px;padding:8px 14px;border-bottom:1px solid #eef0f5}
#pp-runner .pp-bar .pp-label{color:#5b6275;font-size:12px;margin-right:2px}
#pp-runner .pp-clock{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;color:#2b3245}
#pp-runner button{font:inherit;font-size:13px;padding:4px 10px;border:1px solid #c5cad6;border-radius:6px;background:#f6f7fa;
color:#1f2430;cursor:pointer}
#pp-runner button:hover{background:#eceff5}
#pp-runner button.pp-primary{background:#1a56db;border-color:#1a56db;color:#fff}
#pp-runner button.pp-primary:hover{background:#1646b5}
#pp-runner button:disabled{opacity:.55;cursor:progress}
#pp-runner .pp-log{flex:1;overflow:auto;padding:10px 14px 40px}
#pp-runner .pp-summary{padding:8px 14px 0}
#pp-runner .pp-status{font-weight:600;margin:0 0 6px}
#pp-runner .pp-status[data-state=done]{color:#0f7b3d}
#pp-runner .pp-status[data-state=failed]{color:#b42318}
#pp-runner .pp-env{margin:0 0 10px;font:12px ui-monospace,SFMono-Regular,Menlo,monospace;color:#41495c;overflow-wrap:anywhere}
#pp-runner .pp-step{margin:6px 0;padding:6px 10px;border-left:3px solid #8a63d2;background:#f6f2fd;border-radius:4px}
#pp-runner details.pp-exchange{margin:6px 0;border:1px solid #e0e4ec;border-radius:6px;background:#fbfcfe}
#pp-runner details.pp-exchange summary{cursor:pointer;padding:6px 10px;font:13px ui-monospace,SFMono-Regular,Menlo,monospace;
display:flex;gap:8px;align-items:baseline;flex-wrap:wrap}
#pp-runner .pp-method{font-weight:700}
#pp-runner .pp-path{overflow-wrap:anywhere;flex:1 1 200px}
#pp-runner .pp-code{font-weight:700;padding:0 6px;border-radius:4px;background:#e7f6ec;color:#0f7b3d}
#pp-runner .pp-code[data-class="3"]{background:#eef3ff;color:#1a56db}
#pp-runner .pp-code[data-class="4"],#pp-runner .pp-code[data-class="5"]{background:#fdecea;color:#b42318}
#pp-runner .pp-op{color:#6b7285;font-size:12px}
#pp-runner .pp-body{padding:0 10px 8px}
#pp-runner .pp-body h3{margin:8px 0 4px;font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:#5b6275}
#pp-runner pre{margin:0;padding:8px;max-height:320px;overflow:auto;background:#f3f5f9;border-radius:4px;
font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre-wrap;overflow-wrap:anywhere}
#pp-runner table{border-collapse:collapse;font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
#pp-runner td{padding:1px 10px 1px 0;vertical-align:top;overflow-wrap:anywhere}
#pp-runner .pp-console{margin:6px 0;font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre-wrap;
overflow-wrap:anywhere;padding:4px 10px;background:#1f2430;color:#e8ebf2;border-radius:4px}
#pp-runner .pp-console[data-level=warn]{background:#4a3b12}
#pp-runner .pp-console[data-level=error]{background:#4a1717}
#pp-runner .pp-error{margin:8px 0;padding:8px 10px;border:1px solid #f3b4ae;background:#fdecea;border-radius:6px;color:#7a1a12}
#pp-runner .pp-error strong{display:block;font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
#pp-runner .pp-note{color:#5b6275;font-size:12px;margin:4px 0}
@media (max-width:600px){
#pp-runner{top:auto;left:0;width:100vw;height:85vh;border-left:0;border-top:1px solid #d6dae3;border-radius:12px 12px 0 0;
box-shadow:0 -8px 24px rgba(0,0,0,.18)}
}
`;
