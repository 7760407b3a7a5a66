// The mykit-delay console: reads GET /stats every 2 s and calls the gateway's own endpoints; no build step, no library.
(function () {
    'use strict';
    const TOKEN_KEY = 'mykit-delay.admin-token';
    // a tenant's token: with tenants configured every data-plane call needs one, and the page shows that tenant's view
    const TENANT_KEY = 'mykit-delay.tenant-token';
    const $ = id => document.getElementById(id);

    // builds elements from data with textContent only, so nothing a job carries is ever parsed as HTML
    function el(tag, attrs, ...children) {
        const node = document.createElement(tag);
        Object.entries(attrs || {}).forEach(([k, v]) => {
            if (k === 'class') node.className = v; else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
            else node.setAttribute(k, v);
        });
        children.forEach(c => node.append(c instanceof Node ? c : document.createTextNode(c == null ? '' : String(c))));
        return node;
    }

    function say(text, kind) {
        const m = $('message');
        m.textContent = text;
        m.className = kind || '';
    }

    function token() {
        return sessionStorage.getItem(TOKEN_KEY) || '';
    }

    function tenantToken() {
        return sessionStorage.getItem(TENANT_KEY) || '';
    }

    function showTokenState() {
        $('admin-state').textContent = token() ? 'token set for this tab' : 'no token';
        $('tenant-state').textContent = tenantToken() ? 'token set for this tab' : 'no token';
    }

    // every call goes through here: JSON in and out, the admin token on admin calls, the envelope's message on failure
    async function api(method, path, body, admin) {
        const headers = {};
        if (body !== undefined) headers['Content-Type'] = 'application/json';
        if (admin && token()) headers['Authorization'] = 'Bearer ' + token();
        else if (!admin && tenantToken()) headers['Authorization'] = 'Bearer ' + tenantToken();
        const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        let json = null;
        try { json = await response.json(); } catch (e) { json = null; }
        if (response.status === 401 && !admin) {
            $('tenant-token').classList.add('wanted');
            throw new Error('token required: enter your token at the top');
        }
        if (response.status === 401) {
            $('admin-token').classList.add('wanted');
            $('admin-token').focus();
            throw new Error('admin token required: enter it at the top and try again');
        }
        if (!response.ok || (json && json.success === false)) {
            throw new Error((json && json.message) || ('HTTP ' + response.status));
        }
        return json ? json.data : null;
    }

    function when(ms) {
        if (ms == null) return '–';
        const d = new Date(ms);
        const delta = ms - Date.now();
        const rel = Math.abs(delta) < 1000 ? 'now' : (delta > 0 ? 'in ' : '') + span(Math.abs(delta)) + (delta < 0 ? ' ago' : '');
        return d.toLocaleTimeString() + ' (' + rel + ')';
    }

    function span(ms) {
        if (ms == null) return '–';
        if (ms < 1000) return ms + ' ms';
        if (ms < 120000) return (ms / 1000).toFixed(1) + ' s';
        if (ms < 7200000) return Math.round(ms / 60000) + ' min';
        return (ms / 3600000).toFixed(1) + ' h';
    }

    function renderTopics(stats) {
        const body = $('topics');
        body.replaceChildren(...stats.topics.map(t => el('tr', { 'data-topic': t.topic },
            el('td', { class: 'topic' }, t.topic),
            el('td', { class: 'num pending' }, t.pending),
            el('td', { class: 'num ready' }, t.ready),
            el('td', { class: 'num inflight' }, t.inFlight),
            el('td', { class: 'num dead' }, t.dead))));
        if (!stats.topics.length) body.append(el('tr', {}, el('td', { colspan: 5, class: 'muted' }, 'no jobs in Redis')));
        const totals = $('totals');
        totals.querySelector('.pending').textContent = stats.pending;
        totals.querySelector('.ready').textContent = stats.ready;
        totals.querySelector('.inflight').textContent = stats.inFlight;
        totals.querySelector('.dead').textContent = stats.dead + (stats.deadExact ? '' : '+');
        $('next-due').textContent = when(stats.nextDueTime);
        $('oldest-overdue').textContent = stats.oldestOverdueTime == null ? '–' : span(stats.oldestOverdueMs) + ' late';
        $('overdue').textContent = stats.overdue == null ? '–' : stats.overdue;
        $('topic-names').replaceChildren(...stats.topics.map(t => el('option', { value: t.topic })));
        renderLateness(stats.lateness || { recent: [], samples: '–' });
    }

    function renderLateness(l) {
        $('late-p50').textContent = span(l.p50Ms);
        $('late-p95').textContent = span(l.p95Ms);
        $('late-p99').textContent = span(l.p99Ms);
        $('late-max').textContent = span(l.maxMs);
        $('late-n').textContent = l.samples;
        const svg = $('late-chart');
        const max = Math.max(1, ...l.recent.map(s => s.lateMs));
        const w = 600 / Math.max(1, l.recent.length);
        svg.replaceChildren(...l.recent.map((s, i) => svgEl('rect', {
            class: 'late', x: i * w, width: Math.max(1, w - 1), y: 80 - 78 * s.lateMs / max, height: 78 * s.lateMs / max
        }, s.lateMs + ' ms')));
    }

    function svgEl(tag, attrs, title) {
        const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
        Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, v));
        if (title != null) {
            const t = document.createElementNS('http://www.w3.org/2000/svg', 'title');
            t.textContent = title;
            node.append(t);
        }
        return node;
    }

    function renderDue(due) {
        const svg = $('due-chart');
        const max = Math.max(1, ...due.perMinute);
        const w = 600 / due.perMinute.length;
        svg.replaceChildren(...due.perMinute.map((n, i) => svgEl('rect', {
            class: 'bar', x: i * w, width: Math.max(1, w - 1), y: 160 - 155 * n / max, height: 155 * n / max,
            'data-minute': i, 'data-count': n
        }, '+' + i + ' min: ' + n)));
        const total = due.perMinute.reduce((a, b) => a + b, 0);
        $('due-total').textContent = total + ' due within ' + due.minutes + ' min'
            + (due.estimated ? ' (spread over the minutes estimated from a sample)' : '') + ', ' + due.overdue + ' overdue now';
    }

    async function refresh() {
        try {
            // a tenant's token sees its own topics; due times across all topics are the admin's (403 to a tenant)
            const [stats, due] = await Promise.all([api('GET', '/stats'),
                api('GET', '/stats/due?minutes=60').catch(() => null)]);
            renderTopics(stats);
            if (due) renderDue(due); else $('due-total').textContent = 'due times across all topics: admin only';
            $('updated').textContent = 'updated ' + new Date(stats.at).toLocaleTimeString();
        } catch (e) {
            $('updated').textContent = 'stats unavailable: ' + e.message;
        }
    }

    function report(target, data) {
        target.replaceChildren(...Object.entries(data).flatMap(([k, v]) => [el('dt', {}, k),
            el('dd', {}, v !== null && typeof v === 'object' ? JSON.stringify(v) : v)]));
    }

    function showJob(job) {
        const out = $('job-result');
        const cancel = el('button', { id: 'job-cancel', type: 'button', class: 'danger', onclick: () => cancelJob(job.id) }, 'Cancel job');
        const facts = el('dl', { class: 'report', id: 'job-facts' });
        report(facts, { id: job.id, topic: job.topic, bizKey: job.bizKey, status: job.status, stage: job.stage,
            due: when(job.dueTime), attempts: job.attempts, tries: job.tries });
        out.replaceChildren(facts, el('pre', {}, job.body == null ? '(no body)' : job.body), cancel);
    }

    async function findJob(ev) {
        ev.preventDefault();
        const id = $('job-id').value.trim();
        if (!id) return say('enter a job id', 'error');
        try {
            showJob(await api('GET', '/jobs/' + encodeURIComponent(id)));
            say('');
        } catch (e) {
            $('job-result').replaceChildren();
            say(e.message, 'error');
        }
    }

    async function cancelJob(id) {
        try {
            await api('DELETE', '/jobs/' + encodeURIComponent(id));
            say('job ' + id + ' cancelled', 'ok');
            showJob(await api('GET', '/jobs/' + encodeURIComponent(id)));
            refresh();
        } catch (e) {
            say('cancel of ' + id + ' refused: ' + e.message, 'error');
        }
    }

    function bizQuery() {
        return '/jobs?bizKey=' + encodeURIComponent($('biz-key').value.trim()) + '&topic=' + encodeURIComponent($('biz-topic').value.trim());
    }

    async function findByBizKey(ev) {
        ev.preventDefault();
        try {
            const found = await api('GET', bizQuery());
            const jobs = Array.isArray(found) ? found : [found];
            if (!jobs.length) return say('no job with that bizKey', 'error');
            showJob(jobs[0]);
            say(jobs.length > 1 ? jobs.length + ' jobs share that bizKey; showing the first' : '');
        } catch (e) {
            say(e.message, 'error');
        }
    }

    async function cancelByBizKey() {
        try {
            const result = await api('DELETE', bizQuery());
            say('cancelled by bizKey: ' + JSON.stringify(result), 'ok');
            refresh();
        } catch (e) {
            say('cancel by bizKey refused: ' + e.message, 'error');
        }
    }

    async function loadDead(ev) {
        if (ev) ev.preventDefault();
        const topic = $('dead-topic').value.trim();
        if (!topic) return say('enter a topic', 'error');
        try {
            const jobs = await api('GET', '/dead/' + encodeURIComponent(topic) + '?limit=100');
            $('dead-rows').replaceChildren(...jobs.map(j => el('tr', { 'data-id': j.id },
                el('td', {}, j.id), el('td', {}, j.bizKey), el('td', { class: 'num' }, j.attempts),
                el('td', {},
                    el('button', { type: 'button', class: 'respawn admin', onclick: () => deadAction('respawn', topic, [j.id]) }, 'Respawn'),
                    ' ',
                    el('button', { type: 'button', class: 'drop admin danger', onclick: () => deadAction('drop', topic, [j.id]) }, 'Drop')))));
            if (!jobs.length) $('dead-rows').append(el('tr', {}, el('td', { colspan: 4, class: 'muted' }, 'no dead letters in ' + topic)));
        } catch (e) {
            say(e.message, 'error');
        }
    }

    async function deadAction(action, topic, ids) {
        if (!topic) return say('enter a topic', 'error');
        if (!ids && !confirm(action + ' every dead letter of ' + topic + '?')) return;
        const path = '/dead/' + encodeURIComponent(topic) + (action === 'respawn' ? '/respawn' : '');
        try {
            const result = await api(action === 'respawn' ? 'POST' : 'DELETE', path, ids ? { ids } : undefined, true);
            say(action === 'respawn' ? result.respawned + ' respawned' : result.dropped + ' dropped', 'ok');
            loadDead();
            refresh();
        } catch (e) {
            say(action + ' failed: ' + e.message, 'error');
        }
    }

    let restorePoll = null;

    function showRestore(r) {
        if (!r) return report($('restore-report'), { restore: 'none has run' });
        const bar = $('restore-progress');
        bar.hidden = !r.running;
        report($('restore-report'), { running: r.running, scanned: r.scanned, restored: r.restored,
            'already in Redis': r.alreadyStored, 'skipped (already due)': r.skippedExpired, 'left to their push': r.leftToPush,
            started: r.startedAt ? new Date(r.startedAt).toLocaleTimeString() : '–', took: span(r.tookMs) });
    }

    async function restoreStatus() {
        try {
            showRestore(await api('GET', '/reStore/status', undefined, true));
        } catch (e) {
            say(e.message, 'error');
        }
    }

    async function startRestore(ev) {
        ev.preventDefault();
        const expire = $('restore-expired').checked;
        $('restore-progress').hidden = false;
        say('restore running…');
        // the restore answers when it is done; meanwhile its status shows how far it got
        restorePoll = setInterval(restoreStatus, 500);
        try {
            showRestore(await api('POST', '/admin/restore?expire=' + expire, undefined, true));
            say('restore finished', 'ok');
            refresh();
        } catch (e) {
            say('restore: ' + e.message, 'error');
            $('restore-progress').hidden = true;
        } finally {
            clearInterval(restorePoll);
        }
    }

    async function loadCluster() {
        try {
            const c = await api('GET', '/cluster', undefined, true);
            report($('cluster-facts'), { mode: c.mode, node: c.node, leader: c.leader, zookeeper: c.zookeeper,
                members: (c.members || []).join(', '), 'fenced calls': c.fencedCalls, restores: c.restores });
            $('cluster-buckets').replaceChildren(...(c.buckets || []).map(b => el('div', { class: b.pumping ? 'pumping' : '' },
                'b' + b.bucket + ' ' + (b.owner || (b.pumping ? 'this node' : '–')))));
        } catch (e) {
            say(e.message, 'error');
        }
    }

    $('admin-form').addEventListener('submit', ev => {
        ev.preventDefault();
        sessionStorage.setItem(TOKEN_KEY, $('admin-token').value);
        $('admin-token').value = '';
        $('admin-token').classList.remove('wanted');
        showTokenState();
        say('admin token kept for this tab', 'ok');
    });
    $('admin-forget').addEventListener('click', () => {
        sessionStorage.removeItem(TOKEN_KEY);
        showTokenState();
    });
    $('tenant-form').addEventListener('submit', ev => {
        ev.preventDefault();
        sessionStorage.setItem(TENANT_KEY, $('tenant-token').value);
        $('tenant-token').value = '';
        $('tenant-token').classList.remove('wanted');
        showTokenState();
        say('token kept for this tab', 'ok');
        refresh();
    });
    $('tenant-forget').addEventListener('click', () => {
        sessionStorage.removeItem(TENANT_KEY);
        showTokenState();
        refresh();
    });
    $('job-form').addEventListener('submit', findJob);
    $('biz-form').addEventListener('submit', findByBizKey);
    $('biz-cancel').addEventListener('click', cancelByBizKey);
    $('dead-form').addEventListener('submit', loadDead);
    $('dead-respawn-all').addEventListener('click', () => deadAction('respawn', $('dead-topic').value.trim(), null));
    $('dead-drop-all').addEventListener('click', () => deadAction('drop', $('dead-topic').value.trim(), null));
    $('restore-form').addEventListener('submit', startRestore);
    $('restore-status').addEventListener('click', restoreStatus);
    $('cluster-load').addEventListener('click', loadCluster);

    showTokenState();
    refresh();
    setInterval(refresh, 2000);
})();
