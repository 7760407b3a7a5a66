// The mykit-delay console: reads one page of GET /stats every 2 s (every 10 s with many topics) and calls the gateway's
// own endpoints; no build step, no library.
(function () {
    'use strict';
    const TOKEN_KEY = 'mykit-delay.admin-token';
    // a tenant's token: with tenants configured every data-plane call needs one, and the page shows that tenant's view
    const TENANT_KEY = 'mykit-delay.tenant-token';
    const $ = id => document.getElementById(id);
    // topic lines one stats answer carries: with thousands of topics a whole list would be megabytes every poll
    const TOPIC_PAGE = 100;
    // more topics than this and the overview is read every SLOW_POLL_MS instead of every POLL_MS
    const MANY_TOPICS = 1000;
    const POLL_MS = 2000;
    const SLOW_POLL_MS = 10000;
    // the page of topics on screen: the filter's prefix, the last topic before the page, those of the pages before
    const topicPage = { prefix: '', after: null, earlier: [], lastTopic: null };
    let pollMs = POLL_MS;

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
            const error = new Error('token required: enter your token at the top');
            error.status = 401;
            throw error;
        }
        if (response.status === 401) {
            $('admin-token').classList.add('wanted');
            $('admin-token').focus();
            throw new Error('admin token required: enter it at the top and try again');
        }
        if (!response.ok || (json && json.success === false)) {
            const error = new Error((json && json.message) || ('HTTP ' + response.status));
            error.status = response.status;
            throw error;
        }
        return json ? json.data : null;
    }

    // a query string of the parameters that have a value: an empty field is left out, never sent as "name="
    function withQuery(path, params) {
        const given = Object.entries(params).filter(([, v]) => v != null && v !== '');
        return given.length ? path + '?' + new URLSearchParams(given).toString() : path;
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
        if (!stats.topics.length) {
            body.append(el('tr', {}, el('td', { colspan: 5, class: 'muted' },
                topicPage.prefix ? 'no topic starts with ' + topicPage.prefix : 'no jobs in Redis')));
        }
        showTotals(stats);
        renderPager(stats);
        $('next-due').textContent = when(stats.nextDueTime);
        $('oldest-overdue').textContent = stats.oldestOverdueTime == null ? '–' : span(stats.oldestOverdueMs) + ' late';
        $('overdue').textContent = stats.overdue == null ? '–' : stats.overdue;
        $('topic-names').replaceChildren(...stats.topics.map(t => el('option', { value: t.topic })));
        renderLateness(stats.lateness || { recent: [], samples: '–' });
    }

    // the totals row: numbers once an answer came, a dash while none did or the caller may not see them
    function showTotals(stats) {
        const totals = $('totals');
        totals.querySelector('.pending').textContent = stats ? stats.pending : '–';
        totals.querySelector('.ready').textContent = stats ? stats.ready : '–';
        totals.querySelector('.inflight').textContent = stats ? stats.inFlight : '–';
        totals.querySelector('.dead').textContent = stats ? stats.dead + (stats.deadExact ? '' : '+') : '–';
    }

    // a token refused: nothing shown before may stay on screen, it is not this caller's to see
    function renderUnknown() {
        $('topics').replaceChildren();
        showTotals(null);
        $('topics-range').textContent = '';
        $('topics-prev').disabled = true;
        $('topics-next').disabled = true;
        ['next-due', 'oldest-overdue', 'overdue'].forEach(id => { $(id).textContent = '–'; });
        $('topic-names').replaceChildren();
        renderLateness({ recent: [], samples: '–' });
    }

    function renderPager(stats) {
        const count = stats.topicCount == null ? stats.topics.length : stats.topicCount;
        const more = stats.moreTopics == null ? (stats.topicsCut ? 1 : 0) : stats.moreTopics;
        const last = count - more;
        const first = last - stats.topics.length + 1;
        $('topics-range').textContent = !stats.topics.length ? ''
            : 'topics ' + first.toLocaleString('en') + '–' + last.toLocaleString('en') + ' of ' + count.toLocaleString('en');
        topicPage.lastTopic = stats.topics.length ? stats.topics[stats.topics.length - 1].topic : null;
        $('topics-prev').disabled = !topicPage.earlier.length;
        $('topics-next').disabled = more <= 0 || !topicPage.lastTopic;
        if (!topicPage.prefix) {
            // the whole list's size sets the pace: the server reads every topic's counters on each poll
            pollMs = count > MANY_TOPICS ? SLOW_POLL_MS : POLL_MS;
        }
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

    let refreshes = 0;

    async function refresh() {
        const mine = ++refreshes;
        try {
            // a tenant's token sees its own topics; due times across all topics are the admin's (403 to a tenant)
            const [stats, due] = await Promise.all([
                api('GET', withQuery('/stats', { limit: TOPIC_PAGE, after: topicPage.after, prefix: topicPage.prefix })),
                api('GET', '/stats/due?minutes=60').catch(() => null)]);
            // a later refresh (a click while a poll was under way) has the newer answer
            if (mine !== refreshes) return;
            if (!stats.topics.length && topicPage.after != null) {
                // the topics past the cursor went away: back to the first page
                topicPage.after = null;
                topicPage.earlier = [];
                return refresh();
            }
            renderTopics(stats);
            if (due) renderDue(due); else $('due-total').textContent = 'due times across all topics: admin only';
            $('updated').textContent = 'updated ' + new Date(stats.at).toLocaleTimeString();
        } catch (e) {
            if (mine !== refreshes) return;
            if (e.status === 401 || e.status === 403) renderUnknown();
            $('updated').textContent = 'stats unavailable: ' + e.message;
        }
    }

    async function poll() {
        await refresh();
        setTimeout(poll, pollMs);
    }

    function nextTopics() {
        if (!topicPage.lastTopic) return;
        topicPage.earlier.push(topicPage.after);
        topicPage.after = topicPage.lastTopic;
        refresh();
    }

    function previousTopics() {
        if (!topicPage.earlier.length) return;
        topicPage.after = topicPage.earlier.pop();
        refresh();
    }

    let filterTimer = null;

    function applyFilter() {
        clearTimeout(filterTimer);
        topicPage.prefix = $('topic-filter').value.trim();
        topicPage.after = null;
        topicPage.earlier = [];
        refresh();
    }

    function filterTopics() {
        // typing waits for a pause, so a word is one request and not one per letter
        clearTimeout(filterTimer);
        filterTimer = setTimeout(applyFilter, 300);
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
        return withQuery('/jobs', { bizKey: $('biz-key').value.trim(), topic: $('biz-topic').value.trim() });
    }

    async function findByBizKey(ev) {
        ev.preventDefault();
        // whatever this lookup answers, the job of an earlier one is not its answer
        $('job-result').replaceChildren();
        if (!$('biz-key').value.trim()) return say('enter a bizKey', 'error');
        try {
            const found = await api('GET', bizQuery());
            const jobs = Array.isArray(found) ? found : [found];
            if (!jobs.length) return say('no job with that bizKey', 'error');
            showJob(jobs[0]);
            say(jobs.length > 1 ? jobs.length + ' jobs share that bizKey; showing the first' : '');
        } catch (e) {
            $('job-result').replaceChildren();
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
            // ids and bizKeys on one line each, cut with an ellipsis when long; the whole value is the hover's title
            // and what a copy takes. attempts: the tries the job used, as the server counts them
            $('dead-rows').replaceChildren(...jobs.map(j => el('tr', { 'data-id': j.id },
                el('td', { class: 'id' }, el('span', { class: 'clip', title: j.id }, j.id)),
                el('td', { class: 'bizkey' }, el('span', { class: 'clip', title: j.bizKey || '' }, j.bizKey)),
                el('td', { class: 'num attempts' }, j.attempts),
                el('td', {},
                    el('button', { type: 'button', class: 'respawn admin', onclick: () => deadAction('respawn', topic, [j.id]) }, 'Respawn'),
                    ' ',
                    el('button', { type: 'button', class: 'drop admin danger', onclick: () => deadAction('drop', topic, [j.id]) }, 'Drop')))));
            if (!jobs.length) $('dead-rows').append(el('tr', {}, el('td', { colspan: 4, class: 'muted' }, 'no dead letters in ' + topic)));
        } catch (e) {
            $('dead-rows').replaceChildren();
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
    $('topics-next').addEventListener('click', nextTopics);
    $('topics-prev').addEventListener('click', previousTopics);
    $('topic-filter').addEventListener('input', filterTopics);
    $('topics-pager').addEventListener('submit', ev => {
        ev.preventDefault();
        applyFilter();
    });

    showTokenState();
    poll();
})();
