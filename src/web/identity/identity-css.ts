// The stylesheet of the identity pages, served from our own origin (the CSP allows no inline styles).
export const identityCss = `
:root { font-family: system-ui, sans-serif; line-height: 1.5; color: #1b1b1b; background: #fafafa; }
body { margin: 0; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; }
header nav { display: flex; justify-content: space-between; align-items: center; padding: .5rem 1rem; background: #22303c; color: #fff; }
header nav ul { list-style: none; display: flex; gap: 1rem; margin: 0; padding: 0; align-items: center; }
header nav a { color: #fff; }
header .who { margin: 0; }
main { max-width: 60rem; margin: 1rem auto; padding: 0 1rem; }
section { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 1rem; margin: 1rem 0; }
label { display: block; margin-top: .5rem; font-weight: 600; }
input, select, button { font: inherit; padding: .35rem .5rem; }
input[type=email], input[type=password], input[type=text] { width: min(100%, 24rem); }
button { margin-top: .5rem; cursor: pointer; }
form.inline { display: inline; }
form.inline button { margin-top: 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #eee; vertical-align: top; }
.notice { padding: .5rem .75rem; border-radius: 4px; }
.notice.error { background: #fde8e8; border: 1px solid #d33; }
.notice.ok { background: #e8f6ea; border: 1px solid #3a3; }
.notice.warn { background: #fff6dc; border: 1px solid #c90; }
.hint { color: #555; font-size: .9em; margin: .25rem 0; }
code, .secret { font-family: ui-monospace, monospace; }
ul.codes { columns: 2; font-family: ui-monospace, monospace; font-size: 1.1em; }
.soon { color: #a60; font-weight: 600; }
`;
