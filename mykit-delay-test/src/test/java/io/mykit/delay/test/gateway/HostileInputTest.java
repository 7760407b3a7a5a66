package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.support.TestServers;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Over a thousand generated hostile requests against a real gateway: broken JSON, wrong types, huge numbers and bodies,
 * unicode and SQL/Lua/Redis metacharacters in topics and ids, path tricks, bad pull parameters, wrong methods and
 * content types, and admin routes spelled every which way without the admin token. Each must get a 4xx JSON envelope
 * with {@code success=false} (a reply to HEAD: the 4xx only); none may change the journal or the gateway's Redis keys;
 * the gateway must still deliver afterwards. Attacks on admin handlers' input carry the token, so that they test the
 * input checks rather than the token check. {@link AdminCanaries} give every admin handler something to change. All
 * requests come from one seeded {@link Random}: the run prints its seed, and {@code -Dmykit.test.hostile-seed=<seed>}
 * replays it.
 */
public class HostileInputTest {
    private static final String SEED_PROPERTY = "mykit.test.hostile-seed";
    protected static final int MAX_BODY_BYTES = 2048;
    protected static final int MAX_REQUEST_BYTES = 1024 * 1024;
    private static final int MAX_BATCH = 1000;
    private static final int MIN_SENT = 1000;
    private static final long MAX_DELAY_MS = Duration.ofDays(366).toMillis();
    private static final long MAX_TTR_MS = Duration.ofHours(1).toMillis();
    private static final long MAX_TIMEOUT_MS = Duration.ofSeconds(30).toMillis();
    /** Jobs in otherwise valid requests wait a day: one a bug lets in stays put where the snapshot sees it. */
    private static final long PARKED_DELAY_MS = Duration.ofDays(1).toMillis();

    private static final String TOPIC =
            "hostile-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String JSON = "application/json";
    protected static final String ADMIN_TOKEN = "hostile-admin-5c1e7a02";
    private static final Map<String, String> WITH_ADMIN_TOKEN = Map.of("X-Admin-Token", ADMIN_TOKEN);
    private static final List<String> NUMBER_FIELDS =
            List.of("delay", "priority", "ttl", "tries", "createTime", "attempts");
    private static final Pattern TOPIC_RULE = Pattern.compile("[A-Za-z0-9_.\\-]{1,128}");
    private static final Pattern ID_RULE = Pattern.compile("[A-Za-z0-9_.:\\-]{1,128}");
    private static final Pattern JSON_INTEGER = Pattern.compile("-?(0|[1-9][0-9]*)");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    // a journal of its own (as every TestGateway has): other tests' pushes must not move the row counts compared here
    @Gateway({
        "mykit.delay.limits.max-body-bytes=" + MAX_BODY_BYTES,
        "mykit.delay.limits.max-request-bytes=" + MAX_REQUEST_BYTES,
        "mykit.delay.admin.token=" + ADMIN_TOKEN
    })
    private static TestGateway gateway;

    private static String database;
    private static String base;
    private static Jedis redis;
    private static JdbcTemplate jdbc;
    private static List<String> journalTables;
    private static AdminCanaries canaries;

    @BeforeAll
    static void start() {
        startOn(gateway);
    }

    /** Runs the suite against {@code on}: a subclass hides {@link #start} to pass its own, with tenants say. */
    protected static void startOn(TestGateway on) {
        gateway = on;
        database = gateway.database();
        base = "http://127.0.0.1:" + gateway.bean(Environment.class).getProperty("local.server.port");
        redis = new Jedis(TestServers.redis().host(), TestServers.redis().port(), 30_000);
        jdbc = new JdbcTemplate(gateway.bean(DataSource.class));
        assertThat(jdbc.queryForObject("SELECT DATABASE()", String.class))
                .as("the gateway's journal")
                .isEqualTo(database);
        journalTables = jdbc.queryForList(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = ?"
                        + " AND table_name <> 'flyway_schema_history' ORDER BY table_name",
                String.class,
                database);
        assertThat(journalTables).as("journal tables").isNotEmpty();
    }

    @AfterAll
    static void stop() {
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void every_hostile_request_gets_a_json_4xx_and_changes_nothing() throws Exception {
        long seed = Long.getLong(SEED_PROPERTY, new Random().nextLong());
        System.out.println("HostileInputTest seed " + seed + " (replay: -D" + SEED_PROPERTY + "=" + seed + ")");
        canaries = AdminCanaries.seed(gateway, TOPIC);
        List<Attack> attacks = new Catalogue(new Random(seed), System.currentTimeMillis()).all();

        State before = settledState();
        State current = before;
        Map<Category, Tally> tallies = new EnumMap<>(Category.class);
        List<String> failures = new ArrayList<>();
        long started = System.nanoTime();
        for (int i = 0; i < attacks.size(); i++) {
            Attack attack = attacks.get(i);
            Tally tally = tallies.computeIfAbsent(attack.category(), c -> new Tally());
            Answer answer;
            if (attack.raw()) {
                answer = sendRaw(attack);
            } else {
                Optional<HttpRequest> request = attack.toRequest();
                if (request.isEmpty()) {
                    tally.refusedByClient++;
                    continue;
                }
                answer = send(request.get());
            }
            tally.sent++;
            List<String> problems = new ArrayList<>(check(attack, answer));
            State now = settledState();
            if (!now.equals(current)) {
                problems.add("changed state: " + current.diff(now));
                current = now;
            }
            if (!problems.isEmpty()) {
                tally.failed++;
                failures.add("#" + i + " [" + attack.category() + "] " + attack + "\n      -> "
                        + String.join("\n      -> ", problems));
            }
        }
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;
        State after = settledState();
        int sent = tallies.values().stream().mapToInt(t -> t.sent).sum();
        report(seed, tallies, failures, elapsedMs);

        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(failures)
                .as("hostile requests that did not get a JSON 4xx or changed state (seed %d)", seed)
                .isEmpty();
        softly.assertThat(after)
                .as("journal rows and Redis keys after every hostile request")
                .isEqualTo(before);
        softly.assertThat(canaries.changes()).as("what admin handlers changed").isEmpty();
        softly.assertThat(sent).as("hostile requests actually sent").isGreaterThanOrEqualTo(MIN_SENT);
        softly.check(HostileInputTest::assertValidPushAndPullStillWork);
        softly.assertAll();
    }

    private static void assertValidPushAndPullStillWork() {
        GatewayClient client = gateway.client();
        String topic = TOPIC + "-alive";
        Reply pushed = client.push("{\"topic\":\"" + topic + "\",\"body\":\"still alive\"}");
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        String id = pushed.data().asText();
        Reply pulled = client.get(topic, 30_000, 30_000);
        assertThat(pulled.status()).as(pulled.toString()).isEqualTo(200);
        assertThat(pulled.data().path("id").asText()).as(pulled.toString()).isEqualTo(id);
        assertThat(pulled.data().path("body").asText()).isEqualTo("still alive");
        Reply finished = client.finish(id);
        assertThat(finished.status()).as(finished.toString()).isEqualTo(200);
    }

    // ---- sending and judging -------------------------------------------------------------------------------------

    private record Answer(int status, String body) {}

    private static Answer send(HttpRequest request) throws InterruptedException {
        try {
            HttpResponse<String> response =
                    HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            return new Answer(-1, "no answer: " + e);
        }
    }

    /** Over a plain socket: the target's bytes reach Tomcat exactly as written. */
    private static Answer sendRaw(Attack attack) {
        Map<String, String> headers = new LinkedHashMap<>(attack.headers());
        if (attack.contentType() != null) {
            headers.put("Content-Type", attack.contentType());
        }
        try {
            RawHttp.Answer answer = RawHttp.send(
                    "127.0.0.1", URI.create(base).getPort(), attack.method(), attack.path(), headers, attack.body());
            return new Answer(answer.status(), answer.body());
        } catch (IOException e) {
            return new Answer(-1, "no answer: " + e);
        }
    }

    /** What is wrong with the answer, if anything: it must be a 4xx with the JSON error envelope. */
    private static List<String> check(Attack attack, Answer answer) {
        List<String> problems = new ArrayList<>();
        String got = answer.status() + " " + preview(answer.body().getBytes(StandardCharsets.UTF_8), 300);
        if (answer.status() < 400 || answer.status() > 499) {
            problems.add("not a 4xx: " + got);
            return problems;
        }
        if (attack.status() != 0 && answer.status() != attack.status()) {
            problems.add("expected " + attack.status() + ": " + got);
        }
        if (attack.headers().containsKey("X-Admin-Token") && answer.status() == 401) {
            problems.add("refused for its admin token, not for its input: " + got);
        }
        if (attack.method().equals("HEAD")) {
            // a reply to HEAD has no body to check
            return problems;
        }
        JsonNode json;
        try {
            json = MAPPER.readTree(answer.body());
        } catch (IOException e) {
            json = null;
        }
        if (json == null || !json.isObject()) {
            problems.add("body is not a JSON object: " + got);
        } else if (!json.path("success").isBoolean() || json.path("success").asBoolean()) {
            problems.add("\"success\" is not false: " + got);
        } else if (json.path("code").asInt() != answer.status()) {
            problems.add("\"code\" is not the HTTP status: " + got);
        }
        return problems;
    }

    // ---- state snapshots -------------------------------------------------------------------------------------------

    /** Row count per journal table, and every Redis key of this gateway with its type and size. */
    private record State(Map<String, Long> journalRows, Map<String, String> redisKeys) {

        /** What differs from {@code later}, in a few words: rows per table, then added, changed and gone keys. */
        String diff(State later) {
            List<String> changes = new ArrayList<>();
            journalRows.forEach((table, rows) -> {
                if (!rows.equals(later.journalRows.get(table))) {
                    changes.add(table + " rows " + rows + " -> " + later.journalRows.get(table));
                }
            });
            Set<String> keys = new TreeSet<>(redisKeys.keySet());
            keys.addAll(later.redisKeys.keySet());
            for (String key : keys) {
                String was = redisKeys.get(key);
                String is = later.redisKeys.get(key);
                if (!Objects.equals(was, is)) {
                    changes.add(key + " " + (was == null ? "new" : was) + " -> " + (is == null ? "gone" : is));
                }
            }
            return changes.size() <= 6
                    ? String.join(", ", changes)
                    : String.join(", ", changes.subList(0, 6)) + " and " + (changes.size() - 6) + " more";
        }
    }

    private static State state() {
        Map<String, Long> rows = new TreeMap<>();
        for (String table : journalTables) {
            rows.put(table, jdbc.queryForObject("SELECT COUNT(*) FROM `" + table + "`", Long.class));
        }
        return new State(rows, redisKeys());
    }

    /** The state once the journal's asynchronous state-change writes are flushed. */
    private static State settledState() throws InterruptedException {
        assertThat(gateway.bean(StateChangeWriter.class).flush(30_000))
                .as("journal state changes flushed")
                .isTrue();
        return state();
    }

    private static Map<String, String> redisKeys() {
        Map<String, String> keys = new TreeMap<>();
        ScanParams match =
                new ScanParams().match("*" + gateway.keyPrefix() + "*").count(1000);
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = redis.scan(cursor, match);
            for (String key : page.getResult()) {
                String type = redis.type(key);
                long size = switch (type) {
                    case "zset" -> redis.zcard(key);
                    case "hash" -> redis.hlen(key);
                    case "list" -> redis.llen(key);
                    case "set" -> redis.scard(key);
                    case "string" -> redis.strlen(key);
                    default -> -1;
                };
                keys.put(key, type + "/" + size);
            }
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return keys;
    }

    // ---- reporting -------------------------------------------------------------------------------------------------

    private static final class Tally {
        int sent;
        int refusedByClient;
        int failed;
    }

    private static void report(long seed, Map<Category, Tally> tallies, List<String> failures, long elapsedMs) {
        StringBuilder out = new StringBuilder("HostileInputTest seed ")
                .append(seed)
                .append(": ")
                .append(String.format("%n  %-15s %6s %9s %7s%n", "category", "sent", "unsendable", "failed"));
        Tally total = new Tally();
        tallies.forEach((category, tally) -> {
            out.append(
                    String.format("  %-15s %6d %9d %7d%n", category, tally.sent, tally.refusedByClient, tally.failed));
            total.sent += tally.sent;
            total.refusedByClient += tally.refusedByClient;
            total.failed += tally.failed;
        });
        out.append(String.format("  %-15s %6d %9d %7d%n", "total", total.sent, total.refusedByClient, total.failed))
                .append("  sent in ")
                .append(elapsedMs)
                .append(" ms\n");
        failures.forEach(failure -> out.append("  FAILED ").append(failure).append('\n'));
        System.out.print(out);
    }

    // ---- the requests ----------------------------------------------------------------------------------------------

    private enum Category {
        MALFORMED_JSON,
        WRONG_TYPE,
        HUGE_NUMBER,
        OVERSIZED,
        UNICODE,
        INJECTION,
        PATH_TRICK,
        PULL_PARAMS,
        METHOD,
        CONTENT_TYPE,
        BATCH,
        DEAD_LETTER,
        ADMIN_BYPASS
    }

    /**
     * One request that must be refused; {@code status} 0 = any 4xx. {@code headers} are sent besides Content-Type;
     * {@code raw} sends it over {@link RawHttp}, the path exactly as written.
     */
    private record Attack(
            Category category,
            String method,
            String path,
            String contentType,
            byte[] body,
            boolean chunked,
            int status,
            Map<String, String> headers,
            boolean raw) {

        /** Empty when java.net.http refuses to build it (illegal URI, method or header): such a request is not sent. */
        Optional<HttpRequest> toRequest() {
            try {
                HttpRequest.BodyPublisher publisher = body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : chunked
                                ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))
                                : HttpRequest.BodyPublishers.ofByteArray(body);
                HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path))
                        .timeout(Duration.ofSeconds(60))
                        .method(method, publisher);
                if (contentType != null) {
                    builder.header("Content-Type", contentType);
                }
                headers.forEach(builder::header);
                return Optional.of(builder.build());
            } catch (IllegalArgumentException refused) {
                return Optional.empty();
            }
        }

        @Override
        public String toString() {
            return method + " " + preview(path.getBytes(StandardCharsets.UTF_8), 300)
                    + (contentType == null ? "" : " [Content-Type: " + contentType + "]")
                    + (chunked ? " [chunked]" : "")
                    + (headers.isEmpty() ? "" : " [headers: " + String.join(", ", headers.keySet()) + "]")
                    + (raw ? " [raw socket]" : "")
                    + (body == null ? "" : " body " + body.length + " bytes: " + preview(body, 300));
        }
    }

    /** Where a hostile topic or id goes. */
    private enum Spot {
        PUSH_TOPIC(Field.TOPIC),
        PUSH_TOPIC_RAW(Field.TOPIC),
        PUSH_ID(Field.ID),
        PUSH_ID_RAW(Field.ID),
        PUSH_SUBTOPIC(Field.SUBTOPIC),
        PUSH_BIZKEY(Field.BIZKEY),
        BATCH_TOPIC(Field.TOPIC),
        BATCH_ID(Field.ID),
        PULL_TOPIC(Field.TOPIC),
        LOOKUP_ID(Field.ID),
        CANCEL_ID(Field.ID),
        FINISH_ID(Field.ID),
        DELETE_ID(Field.ID),
        REST_FINISH_ID(Field.ID),
        DEAD_TOPIC(Field.TOPIC),
        RESPAWN_TOPIC(Field.TOPIC),
        DROP_TOPIC(Field.TOPIC);

        private final Field field;

        Spot(Field field) {
            this.field = field;
        }
    }

    private enum Field {
        TOPIC,
        ID,
        SUBTOPIC,
        BIZKEY;

        /** True when the gateway must accept the value here: such a value is not hostile. */
        boolean accepts(String value) {
            return switch (this) {
                case TOPIC -> TOPIC_RULE.matcher(value).matches();
                case ID -> ID_RULE.matcher(value).matches();
                case SUBTOPIC -> value.length() <= 250 && value.chars().noneMatch(Character::isISOControl);
                case BIZKEY -> value.length() <= 128 && value.chars().noneMatch(Character::isISOControl);
            };
        }
    }

    /** Builds the hostile requests; everything random comes from one seeded Random, in one fixed order. */
    private static final class Catalogue {
        private static final List<String> WEIRD_CHARACTERS = List.of(
                "😀",
                "👨\u200D👩\u200D👧",
                "\u202E",
                "\u200F",
                "مرحبا",
                "שלום",
                "\u0000",
                "\uD800",
                "\uDC00",
                "\uDBFF\uDBFF",
                "\u200B",
                "\u200D",
                "\u200C",
                "\uFEFF",
                "\u2060",
                "\u00AD",
                "\u00A0",
                "Ａ",
                "а",
                "ο",
                "\u212A",
                "e\u0301",
                "ﬁ",
                "\u0130",
                "ß",
                "\u2028",
                "\u2029",
                "\u0085",
                "\u007F",
                "\t",
                "\r\n",
                "\u3000",
                "𝟘",
                "\u0663",
                "\uFFFD",
                "\uFFFF",
                "\u0007",
                "中文",
                "\u001B[31m",
                "\uE000");
        private static final List<String> METACHARACTERS = List.of(
                "'",
                "\"",
                ";",
                "/*",
                "*/",
                "\\",
                "%",
                "'; DROP TABLE mykit_delay_queue_job; --",
                "\" OR \"1\"=\"1",
                "' OR 1=1 --",
                "\\'",
                "\\\"",
                "\\\\",
                "`",
                "$",
                "{",
                "}",
                "*",
                "[",
                "]",
                "?",
                "\r\n",
                " ",
                "\t",
                ",",
                "(",
                ")",
                "#",
                "|",
                "&",
                "=",
                "+",
                "!",
                "@",
                "~",
                "^",
                "<",
                ">",
                "{x}",
                "}{",
                "*\r\nFLUSHALL\r\n",
                "redis.call('FLUSHALL')",
                "]]..redis.call(\"DEL\",KEYS[1])..[[",
                "\r\n*1\r\n$8\r\nFLUSHALL\r\n",
                ":",
                "/",
                "%2F",
                "${jndi:ldap://x/a}",
                "#{1+1}",
                "'||pg_sleep(5)||'",
                "1; SELECT SLEEP(5)",
                "%27",
                "\\u0027",
                "--",
                "\\x00");

        private final Random random;
        private final long now;
        private final List<Attack> attacks = new ArrayList<>();

        Catalogue(Random random, long now) {
            this.random = random;
            this.now = now;
        }

        List<Attack> all() {
            malformedJson();
            wrongTypes();
            hugeNumbers();
            oversized();
            unicode();
            injection();
            pathTricks();
            pullParameters();
            methods();
            contentTypes();
            batches();
            deadLetters();
            // last, so that a seed replays the same attacks before it
            adminBypass();
            return attacks;
        }

        private void malformedJson() {
            Category c = Category.MALFORMED_JSON;
            String full = job(
                    "id",
                    quote("h-" + alnum(8)),
                    "subtopic",
                    quote("s"),
                    "bizKey",
                    quote("b-1"),
                    "priority",
                    "5",
                    "body",
                    quote("hello \"world\""));
            for (int i = 0; i < 40; i++) {
                push(c, full.substring(0, random.nextInt(full.length())));
            }
            String pair = "[" + job() + "," + job("body", quote("second")) + "]";
            for (int i = 0; i < 10; i++) {
                batch(c, pair.substring(0, random.nextInt(pair.length())));
            }
            String t = quote(TOPIC);
            for (String broken : List.of(
                    "{",
                    "}",
                    "[",
                    "]",
                    "{{}}",
                    ":",
                    ",",
                    "{\"topic\"}",
                    "{\"topic\":}",
                    "{\"topic\":" + t + ",}",
                    "{,\"topic\":" + t + "}",
                    "{\"topic\" " + t + "}",
                    "{\"topic\":" + t + " \"delay\":1}",
                    "{'topic':'" + TOPIC + "'}",
                    "{topic:" + t + "}",
                    "{\"topic\":" + t + "]",
                    "[\"topic\":" + t + "}",
                    "{\"topic\":[" + t + "}",
                    "{\"topic\":" + t + "/*c*/}",
                    "// c\n" + job(),
                    "# c\n" + job(),
                    "{\"topic\":\"a\\qb\"}",
                    "{\"topic\":\"" + TOPIC,
                    "{\"topic\":\"\\uZZZZ\"}",
                    "{\"topic\":\"\\u00\"}",
                    t,
                    "42",
                    "true",
                    "null",
                    "{\"topic\":" + t + ",\"delay\":1 2}",
                    "{\"topic\":" + t + ",\"delay\":--1}",
                    "{\"topic\":" + t + ",\"delay\":1-}",
                    "{\"\":" + t + "}",
                    "{\"topic\":" + t + ",,\"delay\":1}",
                    "[" + job() + "]")) {
                push(c, broken);
            }
            // bytes no JSON text may hold: raw control characters, NUL, invalid or overlong UTF-8
            pushBytes(c, concat(ascii("{\"topic\":\"a"), new byte[] {1}, ascii("b\"}")));
            pushBytes(c, concat(new byte[] {0}, ascii(job())));
            for (byte[] invalid : List.of(
                    new byte[] {(byte) 0xFF},
                    new byte[] {(byte) 0xC3, 0x28},
                    new byte[] {(byte) 0xC0, (byte) 0xAF},
                    new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                    new byte[] {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80})) {
                pushBytes(c, concat(ascii("{\"topic\":\"t"), invalid, ascii("\"}")));
                pushBytes(c, concat(ascii(job().replace("}", ",\"body\":\"a")), invalid, ascii("b\"}")));
            }
            for (String field : NUMBER_FIELDS) {
                for (String notANumber : List.of("NaN", "Infinity", "-Infinity", "+Infinity", "nan", "inf", "-NaN")) {
                    push(c, job(field, notANumber));
                }
            }
            for (int depth : List.of(64, 999, 1000, 1001, 1500, 5000, 50_000, 200_000)) {
                String arrays = "[".repeat(depth) + "]".repeat(depth);
                push(c, arrays);
                batch(c, arrays);
                push(c, job("body", arrays));
                if (depth > 1100) {
                    // an unknown field is skipped, but not past the parser's nesting limit
                    push(c, job("extra", "{\"a\":".repeat(depth) + "1" + "}".repeat(depth)));
                    push(c, "[".repeat(depth));
                }
            }
            // trailing garbage after a complete, valid job
            for (String tail : List.of(" x", "}", "]", " " + job(), ",{}", " null", "\"", "[", "\u0000")) {
                push(c, job("body", quote("trailing")) + tail);
            }
            batch(c, "[" + job() + "]]");
            batch(c, "[" + job() + "] garbage");
        }

        private void wrongTypes() {
            Category c = Category.WRONG_TYPE;
            List<String> notStrings = List.of(
                    "123",
                    "-1",
                    "1.5",
                    "true",
                    "false",
                    "{}",
                    "[]",
                    "[" + quote(TOPIC) + "]",
                    "{\"v\":" + quote(TOPIC) + "}");
            for (String field : List.of("id", "topic", "subtopic", "bizKey", "body")) {
                for (String value : notStrings) {
                    push(c, job(field, value));
                }
            }
            push(c, job("topic", "null"));
            List<String> notNumbers = List.of(
                    "\"abc\"",
                    "\"12\"",
                    "\"\"",
                    "true",
                    "false",
                    "{}",
                    "[]",
                    "[1]",
                    "null",
                    "1.5",
                    "1e3",
                    "-0.0",
                    "\"1e3\"",
                    "{\"v\":1}",
                    "\"0x10\"");
            for (String field : NUMBER_FIELDS) {
                for (String value : notNumbers) {
                    push(c, job(field, value));
                }
            }
        }

        private void hugeNumbers() {
            List<String> tokens = new ArrayList<>(List.of(
                    "9223372036854775808",
                    "-9223372036854775809",
                    "18446744073709551616",
                    "1e308",
                    "-1e308",
                    "1e309",
                    "-1e309",
                    "1.7976931348623157E308",
                    "4.9E-324",
                    "123456789012345678901234567890",
                    "-1",
                    "-9223372036854775808",
                    "9223372036854775807",
                    "2147483648",
                    "-2147483649",
                    "4294967296",
                    "-2147483648",
                    "1" + "0".repeat(999),
                    "9".repeat(1001),
                    "-" + "9".repeat(5000),
                    "0." + "0".repeat(2000) + "1",
                    "1e2147483648",
                    "05",
                    "-05",
                    "+5",
                    ".5",
                    "5.",
                    "0x1F",
                    "1_000",
                    "- 1",
                    "1e",
                    "1e+",
                    "--5",
                    "1.0e-400"));
            for (int i = 0; i < 10; i++) {
                BigInteger big = new BigInteger(64 + random.nextInt(140), random).add(BigInteger.ONE.shiftLeft(63));
                tokens.add((random.nextBoolean() ? "-" : "") + big);
            }
            for (int i = 0; i < 5; i++) {
                tokens.add(Long.toString(Long.MIN_VALUE / (1 + random.nextInt(1000))));
                tokens.add((1 + random.nextInt(9)) + "e" + (19 + random.nextInt(400)));
            }
            for (String token : tokens) {
                List<String> fields = new ArrayList<>(NUMBER_FIELDS);
                Collections.shuffle(fields, random);
                for (String field : fields.subList(0, 3)) {
                    if (!mustAccept(field, token)) {
                        push(Category.HUGE_NUMBER, job(field, token));
                    }
                }
            }
        }

        /** An in-range integer the field's Java type holds: the gateway must accept it. */
        private boolean mustAccept(String field, String token) {
            if (!JSON_INTEGER.matcher(token).matches()) {
                return false;
            }
            BigInteger value = new BigInteger(token);
            long latest = now + MAX_DELAY_MS;
            return switch (field) {
                case "delay", "ttl" -> between(value, 0, MAX_DELAY_MS);
                case "priority" -> between(value, 0, 86_400_000);
                case "tries" -> between(value, 0, 1000);
                // 0 is "now"; otherwise milliseconds from 2000-01-01 on
                case "createTime" -> value.signum() == 0 || between(value, 946_684_800_000L, latest - PARKED_DELAY_MS);
                case "attempts" -> between(value, Integer.MIN_VALUE, Integer.MAX_VALUE);
                default -> throw new IllegalArgumentException(field);
            };
        }

        private void oversized() {
            Category c = Category.OVERSIZED;
            for (int i = 0; i < 8; i++) {
                push(c, job("body", quote(alnum(MAX_BODY_BYTES + 1 + random.nextInt(20_000)))));
            }
            push(c, job("body", quote("x".repeat(MAX_BODY_BYTES + 1))));
            // few characters, many UTF-8 bytes: the limit counts bytes
            push(c, job("body", quote("€".repeat(683))));
            pushBytes(c, utf8Loose(job("body", rawQuote("€".repeat(683)))));
            push(c, job("body", quote("😀".repeat(513))));
            pushBytes(c, utf8Loose(job("body", rawQuote("é".repeat(1025)))));
            push(c, job("body", quote("x".repeat(MAX_BODY_BYTES - 1) + "é")));
            push(c, job("body", quote(alnum(900_000))));
            for (int length : List.of(129, 1000, 100_000, 900_000)) {
                push(c, job("topic", quote("t".repeat(length))));
            }
            for (int length : List.of(129, 5000, 500_000)) {
                push(c, job("id", quote("i".repeat(length))));
            }
            for (int length : List.of(251, 10_000)) {
                push(c, job("subtopic", quote("s".repeat(length))));
            }
            for (int length : List.of(129, 10_000)) {
                push(c, job("bizKey", quote("b".repeat(length))));
            }
            for (int count : List.of(MAX_BATCH + 1, 1500, 5000)) {
                batch(c, jobs(count, i -> job()));
            }
            // over max-request-bytes with a Content-Length: refused before the body is read
            byte[] padded =
                    ascii(job("body", quote("padded")) + " ".repeat(MAX_REQUEST_BYTES + random.nextInt(200_000)));
            byte[] leading = ascii("\n".repeat(MAX_REQUEST_BYTES + random.nextInt(200_000)) + job());
            byte[] garbage = ascii(alnum(MAX_REQUEST_BYTES + 1 + random.nextInt(400_000)));
            byte[] bigBatch = ascii(jobs(600, i -> job("body", quote(alnum(MAX_BODY_BYTES - 100)))));
            call(c, "POST", "/push", JSON, padded, false, 413);
            call(c, "POST", "/push", JSON, leading, false, 413);
            call(c, "POST", "/push", JSON, garbage, false, 413);
            call(c, "POST", "/push/batch", JSON, bigBatch, false, 413);
            call(c, "POST", "/push/batch", JSON, garbage, false, 413);
            call(c, "GET", "/get/" + TOPIC + "?ttr=1000", JSON, garbage, false, 413);
            call(c, "GET", "/jobs/h-no-such-job", JSON, garbage, false, 413);
            call(c, "GET", "/finish?jobId=h-no-such-job", JSON, garbage, false, 413);
            adminCall(c, "POST", "/dead/" + TOPIC + "/respawn", JSON, garbage, false, 413);
            call(c, "PUT", "/push", JSON, garbage, false, 413);
            call(c, "POST", "/push", "text/plain", garbage, false, 413);
            // the same sizes without a Content-Length (chunked) must not slip past the limit
            call(c, "POST", "/push", JSON, padded, true, 413);
            call(c, "POST", "/push", JSON, leading, true, 413);
            call(c, "POST", "/push/batch", JSON, bigBatch, true, 413);
        }

        private void unicode() {
            for (String weird : WEIRD_CHARACTERS) {
                for (int i = 0; i < 4; i++) {
                    spot(Category.UNICODE, randomSpot(), insert(plain(), weird));
                }
            }
        }

        private void injection() {
            for (String meta : METACHARACTERS) {
                for (int i = 0; i < 3; i++) {
                    spot(Category.INJECTION, randomSpot(), insert(plain(), meta));
                }
            }
        }

        private void pathTricks() {
            Category c = Category.PATH_TRICK;
            for (String path : List.of(
                    "/get/../push",
                    "/get/..%2Fpush",
                    "/get/%2e%2e/push",
                    "/get/%2E%2E%2Fpush",
                    "/get/..%5Cpush",
                    "/get/..;/push",
                    "/jobs/..%2F..%2F..%2Fetc%2Fpasswd",
                    "/jobs/../../../etc/passwd",
                    "/jobs/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                    "/jobs/%00",
                    "/jobs/a%00b",
                    "/jobs/%2500",
                    "/jobs/..%00/",
                    "/get/" + TOPIC + "%00?ttr=1000",
                    "/jobs/%C0%AE%C0%AE/",
                    "/jobs/%FF%FE",
                    "/jobs/%E2%80%AE",
                    "/jobs/;a=b",
                    "/jobs/a;jsessionid=1",
                    "/jobs/%3B",
                    "/jobs/%5C..%5C",
                    "/jobs/....//",
                    "//jobs//h-x",
                    "/jobs/h-x/",
                    "/jobs/h-x/y",
                    "/jobs/%20",
                    "/jobs/%0D%0AX-Injected:%201",
                    "/get/%0D%0A?ttr=1000",
                    "/jobs/%2F",
                    "/get/",
                    "/get",
                    "/jobs",
                    "/jobs/",
                    "/dead",
                    "/dead/",
                    "/get/" + TOPIC + "/extra",
                    "/get/%252e%252e%252fpush",
                    "/jobs/.%2e/push",
                    "/push/",
                    "/PUSH",
                    "/push2",
                    "/Get/" + TOPIC,
                    // "/" is left out: it redirects to the console (PlainAnswersTest)
                    "/error",
                    "/error?status=200",
                    "/actuator",
                    "/actuator/env",
                    "/WEB-INF/web.xml",
                    "/META-INF/MANIFEST.MF",
                    "/.env",
                    "/index.html",
                    "/jobs/%u002e%u002e",
                    "/jobs/h-x?jobId=%00",
                    "/finish?jobId=..%2F..%2F",
                    "/delete?jobId=%2e%2e",
                    "/jobs/h x",
                    "/jobs/{id}",
                    "/jobs/a|b",
                    "/jobs/\u0000",
                    "/jobs/😀")) {
                get(c, path);
            }
            call(c, "POST", "/error", JSON, ascii(job()), false, 0);
            List<String> steps = List.of(
                    "../",
                    "..%2F",
                    "%2e%2e/",
                    "%2e%2e%2f",
                    "..%5c",
                    "..;/",
                    "%252e%252e%252f",
                    ".%2e/",
                    "%c0%ae%c0%ae/",
                    "..%00/",
                    "%00",
                    ";x=y/",
                    "//",
                    "./",
                    "%2f");
            // tails with a slash: no single-segment topic they could turn into a valid /get or /dead call
            List<String> tails = List.of("etc/passwd", "push/batch", "WEB-INF/web.xml", "jobs/h-no-such-job/x");
            for (int i = 0; i < 40; i++) {
                String route = pick(List.of("/get/", "/jobs/", "/dead/", "/jobs/h-x/"));
                StringBuilder path = new StringBuilder(route);
                for (int n = 1 + random.nextInt(4); n > 0; n--) {
                    path.append(pick(steps));
                }
                get(c, path + pick(tails));
            }
            for (int length : List.of(129, 1000, 4000, 7000, 9000, 20_000, 60_000)) {
                get(c, "/jobs/" + "a".repeat(length));
                get(c, "/get/" + "t".repeat(length) + "?ttr=1000");
            }
            get(c, "/get/" + TOPIC + "?ttr=" + "9".repeat(5000));
            get(c, "/jobs/" + "../".repeat(1000) + "etc/passwd");
        }

        private void pullParameters() {
            // empty or whitespace-only values mean "absent" (the default applies), so none is listed here
            List<String> badTtr = List.of(
                    "0",
                    "-1",
                    "-1000",
                    "-0",
                    Long.toString(MAX_TTR_MS + 1),
                    "9223372036854775807",
                    "9223372036854775808",
                    "-9223372036854775808",
                    "99999999999999999999",
                    "1e3",
                    "1.5",
                    "abc",
                    "NaN",
                    "Infinity",
                    "0.0",
                    "-0x10",
                    "true",
                    "%00",
                    "1%00",
                    "1;2",
                    "1,000",
                    "1_000",
                    "%27%3B--",
                    "null",
                    "%7B%7D",
                    "%5B1%5D",
                    "0x",
                    "%23",
                    "--1",
                    "1-",
                    "%F0%9F%98%80");
            List<String> badTimeout = List.of(
                    "-1",
                    "-1000",
                    Long.toString(MAX_TIMEOUT_MS + 1),
                    "9223372036854775807",
                    "9223372036854775808",
                    "-9223372036854775809",
                    "1e2",
                    "0.5",
                    "abc",
                    "NaN",
                    "-0x1",
                    "%00",
                    "x%0D%0A",
                    "1,0",
                    "false",
                    "%E2%80%AE1");
            for (int i = 0; i < 100; i++) {
                String query = switch (random.nextInt(5)) {
                    case 0 -> "?ttr=" + pick(badTtr);
                    case 1 -> "?timeout=" + pick(badTimeout);
                    case 2 -> "?ttr=" + pick(badTtr) + "&timeout=0";
                    case 3 -> "?ttr=1000&timeout=" + pick(badTimeout);
                    default -> "?timeout=" + pick(badTimeout) + "&ttr=" + pick(badTtr);
                };
                get(Category.PULL_PARAMS, "/get/" + TOPIC + query);
            }
        }

        private void methods() {
            record Route(String path, Set<String> allowed, String body) {}
            List<Route> routes = List.of(
                    new Route("/push", Set.of("POST"), job()),
                    new Route("/push/batch", Set.of("POST"), "[" + job() + "]"),
                    new Route("/get/" + TOPIC + "?ttr=1000", Set.of("GET"), null),
                    new Route("/jobs/h-no-such-job", Set.of("GET", "DELETE", "PUT"), null),
                    new Route("/finish?jobId=h-no-such-job", Set.of("GET"), null),
                    new Route("/delete?jobId=h-no-such-job", Set.of("GET"), null),
                    new Route("/dead/" + TOPIC, Set.of("GET", "DELETE"), null),
                    new Route("/dead/" + TOPIC + "/respawn", Set.of("POST"), "{\"ids\":[]}"));
            Set<String> standard = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");
            for (Route route : routes) {
                for (String method : List.of(
                        "GET", "POST", "PUT", "PATCH", "DELETE", "TRACE", "FOO", "get", "PROPFIND", "CONNECT")) {
                    if (!route.allowed().contains(method)) {
                        Attack attack = new Attack(
                                Category.METHOD,
                                method,
                                route.path(),
                                route.body() == null ? null : JSON,
                                route.body() == null ? null : ascii(route.body()),
                                false,
                                standard.contains(method) ? 405 : 0,
                                route.path().startsWith("/dead/") ? WITH_ADMIN_TOKEN : Map.of(),
                                false);
                        attacks.add(attack);
                    }
                }
            }
        }

        private void contentTypes() {
            Map<String, String> bodies = new LinkedHashMap<>();
            bodies.put("/push", job());
            bodies.put("/push/batch", "[" + job() + "]");
            bodies.put("/dead/" + TOPIC + "/respawn", "{\"ids\":[]}");
            List<String> notJson = List.of(
                    "text/plain",
                    "text/html",
                    "application/xml",
                    "text/xml",
                    "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=xyz",
                    "application/octet-stream",
                    "image/png",
                    "application/javascript",
                    "application/jsonp",
                    "application/x-json",
                    "text/json",
                    "application/yaml",
                    "text/csv");
            List<String> broken = List.of(
                    "*/*",
                    "application/*",
                    "",
                    ";;;",
                    "json",
                    "application",
                    "/",
                    "application/json; charset=klingon",
                    "application/json; charset=\"",
                    "application/json, text/plain",
                    "application/json\r\nX-Injected: 1",
                    "application/jsön");
            bodies.forEach((path, body) -> {
                Map<String, String> headers = path.startsWith("/dead/") ? WITH_ADMIN_TOKEN : Map.of();
                for (String type : notJson) {
                    attacks.add(new Attack(
                            Category.CONTENT_TYPE, "POST", path, type, ascii(body), false, 415, headers, false));
                }
                for (String type : broken) {
                    attacks.add(new Attack(
                            Category.CONTENT_TYPE, "POST", path, type, ascii(body), false, 0, headers, false));
                }
                attacks.add(
                        new Attack(Category.CONTENT_TYPE, "POST", path, null, ascii(body), false, 415, headers, false));
            });
        }

        private void batches() {
            Category c = Category.BATCH;
            for (String broken : List.of(
                    "[]",
                    "{}",
                    "null",
                    "[null]",
                    "[1]",
                    "[\"x\"]",
                    "[[]]",
                    "[{}]",
                    "[true]",
                    "\"[]\"",
                    "[" + job() + ",null]",
                    "[" + job() + ",1]",
                    "[" + job() + ",[]]",
                    "[,]",
                    "[" + job() + ",]",
                    "[" + job(),
                    job())) {
                batch(c, broken);
            }
            List<String> hostileJobs = List.of(
                    job("delay", "-1"),
                    job("topic", quote("a b")),
                    job("id", quote("x'--")),
                    job("tries", "1001"),
                    job("priority", "86400001"),
                    job("body", quote("x".repeat(MAX_BODY_BYTES + 1))),
                    job("createTime", "-5"),
                    job("ttl", "-1"),
                    job("subtopic", quote("a\u0000")),
                    job("delay", "\"soon\""),
                    job("topic", quote("t😀")),
                    job("id", quote("{a}*")),
                    job("topic", null),
                    job("delay", "1e400"),
                    "{\"topic\":}",
                    job("body", "{\"a\":1}"),
                    job("attempts", "2147483648"));
            for (int i = 0; i < 45; i++) {
                int count = 1 + random.nextInt(30);
                int bad = random.nextInt(count);
                String hostile = pick(hostileJobs);
                batch(c, jobs(count, k -> k == bad ? hostile : job("id", quote("h-" + alnum(12)))));
            }
        }

        private void deadLetters() {
            Category c = Category.DEAD_LETTER;
            for (String limit :
                    List.of("0", "-1", "1001", "abc", "99999999999", "1.5", "-2147483649", "%00", "1e3", "NaN")) {
                get(c, "/dead/" + TOPIC + "?limit=" + limit);
            }
            List<String> idLists = List.of(
                    "{\"ids\":\"x\"}",
                    "{\"ids\":[1]}",
                    "{\"ids\":[{}]}",
                    "{\"ids\":{}}",
                    "[1]",
                    "\"x\"",
                    "{",
                    "{\"ids\":[[\"a\"]]}",
                    "{\"ids\":true}",
                    "{\"ids\":[null]}",
                    "{\"ids\":[\"\"]}",
                    "{\"ids\":[" + quote("'; DROP TABLE mykit_delay_queue_job; --") + "]}",
                    "{\"ids\":[" + quote("a b") + "]}",
                    "{\"ids\":[" + quote("😀") + "]}",
                    "{\"ids\":[" + quote("i".repeat(129)) + "]}");
            for (String ids : idLists) {
                adminCall(c, "POST", "/dead/" + TOPIC + "/respawn", JSON, ascii(ids), false, 0);
                adminCall(c, "DELETE", "/dead/" + TOPIC, JSON, ascii(ids), false, 0);
            }
        }

        /** Every admin route in every spelling, without the token: each refused before its handler runs. */
        private void adminBypass() {
            for (AdminPathSpellings.Call call : AdminPathSpellings.adminCalls(TOPIC, canaries.lost())) {
                attacks.add(new Attack(
                        Category.ADMIN_BYPASS, call.method(), call.target(), null, null, false, 0, Map.of(), true));
            }
        }

        // ---- building blocks ---------------------------------------------------------------------------------------

        private void spot(Category c, Spot spot, String value) {
            if (spot.field.accepts(value)) {
                return;
            }
            switch (spot) {
                case PUSH_TOPIC -> push(c, job("topic", quote(value)));
                case PUSH_TOPIC_RAW -> pushBytes(c, utf8Loose(job("topic", rawQuote(value))));
                case PUSH_ID -> push(c, job("id", quote(value)));
                case PUSH_ID_RAW -> pushBytes(c, utf8Loose(job("id", rawQuote(value))));
                case PUSH_SUBTOPIC -> push(c, job("subtopic", quote(value)));
                case PUSH_BIZKEY -> push(c, job("bizKey", quote(value)));
                case BATCH_TOPIC -> batch(c, "[" + job() + "," + job("topic", quote(value)) + "]");
                case BATCH_ID -> batch(c, "[" + job("id", quote(value)) + "]");
                case PULL_TOPIC -> get(c, "/get/" + pct(value) + "?ttr=1000");
                case LOOKUP_ID -> get(c, "/jobs/" + pct(value));
                case CANCEL_ID -> call(c, "DELETE", "/jobs/" + pct(value), null, null, false, 0);
                case FINISH_ID -> get(c, "/finish?jobId=" + pct(value));
                case DELETE_ID -> get(c, "/delete?jobId=" + pct(value));
                case REST_FINISH_ID -> call(c, "POST", "/jobs/" + pct(value) + "/finish", null, null, false, 0);
                case DEAD_TOPIC -> get(c, "/dead/" + pct(value));
                case RESPAWN_TOPIC -> adminCall(c, "POST", "/dead/" + pct(value) + "/respawn", null, null, false, 0);
                case DROP_TOPIC -> adminCall(c, "DELETE", "/dead/" + pct(value), null, null, false, 0);
            }
        }

        private Spot randomSpot() {
            Spot[] spots = Spot.values();
            return spots[random.nextInt(spots.length)];
        }

        private void push(Category c, String json) {
            pushBytes(c, utf8Loose(json));
        }

        private void pushBytes(Category c, byte[] body) {
            call(c, "POST", "/push", JSON, body, false, 0);
        }

        private void batch(Category c, String json) {
            call(c, "POST", "/push/batch", JSON, utf8Loose(json), false, 0);
        }

        private void get(Category c, String path) {
            call(c, "GET", path, null, null, false, 0);
        }

        private void call(
                Category c, String method, String path, String contentType, byte[] body, boolean chunked, int status) {
            attacks.add(new Attack(c, method, path, contentType, body, chunked, status, Map.of(), false));
        }

        /** An attack on an admin handler's input: it carries the token, so the input checks are what refuse it. */
        private void adminCall(
                Category c, String method, String path, String contentType, byte[] body, boolean chunked, int status) {
            attacks.add(new Attack(c, method, path, contentType, body, chunked, status, WITH_ADMIN_TOKEN, false));
        }

        /** A valid job parked a day out, with fields replaced by raw JSON values (null removes one). */
        private static String job(String... fieldsAndRawValues) {
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("topic", quote(TOPIC));
            fields.put("delay", Long.toString(PARKED_DELAY_MS));
            for (int i = 0; i < fieldsAndRawValues.length; i += 2) {
                if (fieldsAndRawValues[i + 1] == null) {
                    fields.remove(fieldsAndRawValues[i]);
                } else {
                    fields.put(fieldsAndRawValues[i], fieldsAndRawValues[i + 1]);
                }
            }
            return fields.entrySet().stream()
                    .map(e -> quote(e.getKey()) + ":" + e.getValue())
                    .collect(Collectors.joining(",", "{", "}"));
        }

        private static String jobs(int count, IntFunction<String> job) {
            return IntStream.range(0, count).mapToObj(job).collect(Collectors.joining(",", "[", "]"));
        }

        /** A short value every field accepts, for hostile characters to be put into. */
        private String plain() {
            return "h" + alnum(1 + random.nextInt(20));
        }

        private String insert(String into, String piece) {
            int at = random.nextInt(into.length() + 1);
            return into.substring(0, at) + piece + into.substring(at);
        }

        private String alnum(int length) {
            String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
            StringBuilder out = new StringBuilder(length);
            for (int i = 0; i < length; i++) {
                out.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            return out.toString();
        }

        private <T> T pick(List<T> options) {
            return options.get(random.nextInt(options.size()));
        }

        private static boolean between(BigInteger value, long min, long max) {
            return value.compareTo(BigInteger.valueOf(min)) >= 0 && value.compareTo(BigInteger.valueOf(max)) <= 0;
        }
    }

    // ---- encoding ------------------------------------------------------------------------------------------------

    /** A JSON string literal in pure ASCII: everything else as a \\u escape, lone surrogates included. */
    private static String quote(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char ch : value.toCharArray()) {
            if (ch == '"' || ch == '\\') {
                out.append('\\').append(ch);
            } else if (ch < 0x20 || ch >= 0x7F) {
                out.append(String.format("\\u%04x", (int) ch));
            } else {
                out.append(ch);
            }
        }
        return out.append('"').toString();
    }

    /** A JSON string literal that escapes only what JSON requires; the rest goes out as raw UTF-8. */
    private static String rawQuote(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char ch : value.toCharArray()) {
            if (ch == '"' || ch == '\\') {
                out.append('\\').append(ch);
            } else if (ch < 0x20) {
                out.append(String.format("\\u%04x", (int) ch));
            } else {
                out.append(ch);
            }
        }
        return out.append('"').toString();
    }

    /** UTF-8, except that a lone surrogate becomes its 3-byte form (invalid UTF-8) instead of '?'. */
    private static byte[] utf8Loose(String value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length() + 16);
        for (int i = 0; i < value.length(); i++) {
            int c = value.charAt(i);
            if (Character.isHighSurrogate((char) c)
                    && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                c = Character.toCodePoint((char) c, value.charAt(++i));
            }
            if (c < 0x80) {
                out.write(c);
            } else if (c < 0x800) {
                out.write(0xC0 | c >> 6);
                out.write(0x80 | c & 0x3F);
            } else if (c < 0x10000) {
                out.write(0xE0 | c >> 12);
                out.write(0x80 | c >> 6 & 0x3F);
                out.write(0x80 | c & 0x3F);
            } else {
                out.write(0xF0 | c >> 18);
                out.write(0x80 | c >> 12 & 0x3F);
                out.write(0x80 | c >> 6 & 0x3F);
                out.write(0x80 | c & 0x3F);
            }
        }
        return out.toByteArray();
    }

    /** Percent-encodes every byte outside the unreserved set, so the value reaches the server as one path segment. */
    private static String pct(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : utf8Loose(value)) {
            int c = b & 0xFF;
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~".indexOf(c) >= 0)) {
                out.append((char) c);
            } else {
                out.append(String.format("%%%02X", c));
            }
        }
        return out.toString();
    }

    private static byte[] ascii(String value) {
        return value.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** Printable ASCII as is, everything else escaped, cut to {@code max} characters. */
    private static String preview(byte[] bytes, int max) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length() && out.length() < max; i++) {
            char ch = text.charAt(i);
            out.append(ch >= 0x20 && ch < 0x7F ? String.valueOf(ch) : String.format("\\u%04x", (int) ch));
        }
        return out.length() < max ? out.toString() : out + "...";
    }
}
