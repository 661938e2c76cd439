// The dashboard's stylesheet, served from our own origin (/assets/dashboard.css; the CSP allows no inline style).
export const dashboardCss = `
[hidden] { display: none !important; }
header nav { flex-wrap: wrap; gap: .5rem; }
header nav ul { flex-wrap: wrap; }
main.wide { max-width: 90rem; }
a:focus-visible, button:focus-visible, [tabindex]:focus-visible { outline: 3px solid #1a73e8; outline-offset: 2px; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; }
.filters label { margin-top: 0; }
.table-wrap { overflow-x: auto; }
.status { display: inline-block; padding: 0 .45rem; border-radius: 999px; border: 1px solid #889; font-size: .9em; white-space: nowrap; }
.status-waiting, .status-pending, .status-running { background: #fff6dc; border-color: #c90; }
.status-completed, .status-approved, .status-succeeded, .status-paid { background: #e8f6ea; border-color: #3a3; }
.status-failed, .status-rejected, .status-rolled_back, .status-declined, .status-escalated, .status-reversed { background: #fde8e8; border-color: #d33; }
.status-cancelled { background: #eee; border-color: #888; }
.order-head { display: flex; flex-wrap: wrap; gap: 1rem; align-items: baseline; }
.grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; }
@media (max-width: 60rem) { .grid { grid-template-columns: minmax(0, 1fr); } }
.diagram { overflow: auto; max-height: 80vh; border: 1px solid #ddd; border-radius: 6px; background: #fff; }
.diagram svg { display: block; max-width: none; }
.flow-diagram .node:focus { outline: none; }
.flow-diagram .node:focus .shape { stroke: #1a73e8; stroke-width: 3; }
.flow-diagram [data-node-status="running"] .shape { fill: #dbe9ff; stroke: #1a5fb4; }
.flow-diagram [data-node-status="waiting"] .shape { fill: #fff0c2; stroke: #b07800; stroke-width: 3; }
.flow-diagram [data-node-status="succeeded"] .shape { fill: #dff3e2; stroke: #2a7d36; }
.flow-diagram [data-node-status="failed"] .shape { fill: #fbdcdc; stroke: #b3261e; stroke-width: 2.5; }
.flow-diagram [data-node-status="skipped"] .shape { fill: #f1f1f1; stroke: #999; }
.flow-diagram [data-node-status="rolled_back"] .shape { fill: #f3e5f5; stroke: #7b1fa2; }
.flow-diagram [data-edge-status="active"] path { stroke: #2a7d36; stroke-width: 2.5; }
.flow-diagram [data-edge-status="inactive"] path { stroke: #c5c5c5; stroke-dasharray: 4 3; }
.flow-diagram [data-problem="true"] .shape { stroke: #b3261e; stroke-width: 3; stroke-dasharray: 5 3; }
.waits { list-style: none; padding: 0; margin: 0; }
.waits li { border: 1px solid #e0c36a; background: #fffbea; border-radius: 6px; padding: .5rem .75rem; margin: .5rem 0; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.actions button { margin-top: 0; }
ul.actions { list-style: none; padding: 0; }
fieldset { min-width: 0; }
form[data-new-order-form] select, form[data-new-order-form] input { max-width: 100%; box-sizing: border-box; }
form[data-new-order-form] td input { width: 100%; min-width: 3rem; }
button.primary { background: #1a5fb4; color: #fff; border: 1px solid #1a5fb4; border-radius: 4px; }
button.danger { background: #fff; color: #b3261e; border: 1px solid #b3261e; border-radius: 4px; }
button[disabled] { opacity: .55; cursor: not-allowed; }
.countdown { font-variant-numeric: tabular-nums; }
.countdown.closing { color: #b3261e; font-weight: 600; }
.timeline { list-style: none; padding: 0; margin: 0; max-height: 28rem; overflow: auto; }
.timeline li { border-left: 3px solid #ccd; padding: .2rem .6rem; margin: .3rem 0; }
.timeline time { color: #555; font-size: .85em; display: block; }
.live-state { font-size: .85em; color: #555; }
.pager { display: flex; gap: 1rem; margin: 1rem 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
.problems li { color: #8a1c15; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.bulk form { align-items: flex-end; }
.bulk fieldset { border: 1px solid #ccd; border-radius: 6px; display: flex; flex-direction: column; gap: .2rem; }
.bulk [data-bulk-input] { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; }
.bulk [data-bulk-input] label { margin-top: 0; }
.bulk [data-bulk-summary] { flex-basis: 100%; }
progress { width: min(100%, 14rem); }
textarea.json { width: 100%; min-height: 24rem; font-family: ui-monospace, monospace; font-size: .9em; }
textarea.json.short { min-height: 9rem; }
[data-impact-warning] { color: #8a1c15; font-weight: 600; }
[data-sim-fail-list] label { margin-top: 0; }
ol.paths { padding-left: 1.2rem; }
ol.paths li { margin: .25rem 0; }
.node-info { min-height: 3rem; }
@media (max-width: 40rem) {
  main { padding: 0 .5rem; }
  section { padding: .6rem; }
  th, td { padding: .25rem .3rem; }
  .hide-narrow { display: none; }
}
`;
