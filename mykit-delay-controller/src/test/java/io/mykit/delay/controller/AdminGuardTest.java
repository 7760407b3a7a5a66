package io.mykit.delay.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.method.HandlerMethod;

/**
 * The guard's rules on request objects that carry a remote address: the TCP peer as {@link SocketPeerValve} records it,
 * and the remote address as the container reports it after any forwarded-header processing.
 */
class AdminGuardTest {
    private static final String TOKEN = "guard-test-token";
    private final AdminGuard loopback = new AdminGuard(null, false);
    private final AdminGuard open = new AdminGuard(null, true);
    private final AdminGuard withToken = new AdminGuard(TOKEN, false);

    /** Stands for any admin handler. */
    static class Handlers {
        @AdminOnly
        public void wipe() {}

        @AdminOnly
        @ChangesState
        public void clearAll() {}
    }

    /** A GET of an admin route from {@code peer} (null: no peer recorded), seen as {@code remote}, Host given. */
    private static MockHttpServletRequest call(String peer, String remote, String host) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/clearAll");
        request.setRemoteAddr(remote);
        if (peer != null) {
            request.setAttribute(SocketPeerValve.ATTRIBUTE, peer);
        }
        if (host != null) {
            request.addHeader("Host", host);
        }
        return request;
    }

    private static MockHttpServletRequest local() {
        return call("127.0.0.1", "127.0.0.1", "127.0.0.1:8080");
    }

    /** The status the guard refuses with, or 0 when it lets the call through. */
    private static int verdict(AdminGuard guard, MockHttpServletRequest request) throws Exception {
        return verdict(guard, request, "wipe");
    }

    private static int verdict(AdminGuard guard, MockHttpServletRequest request, String handlerName) throws Exception {
        HandlerMethod handler = new HandlerMethod(new Handlers(), Handlers.class.getMethod(handlerName));
        AdminAccessDeniedException refused = catchThrowableOfType(
                AdminAccessDeniedException.class,
                () -> guard.preHandle(request, new MockHttpServletResponse(), handler));
        return refused == null ? 0 : refused.status();
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.1.2.3", "0:0:0:0:0:0:0:1", "::1", "::ffff:127.0.0.1"})
    void loopback_literals_count_as_loopback(String address) {
        assertThat(LocalCaller.isLoopback(address)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "192.0.2.2",
                "10.0.0.1",
                "::ffff:192.0.2.2",
                "2001:db8::1",
                "0.0.0.0",
                "localhost",
                "127.0.0.1.example.com",
                "",
                "::1%lo",
                "127.0.0.1, 10.0.0.1"
            })
    void other_addresses_and_anything_but_an_ip_literal_do_not(String address) {
        assertThat(LocalCaller.isLoopback(address)).isFalse();
    }

    @Test
    void a_token_wins_over_open_and_no_token_means_loopback_unless_open() {
        assertThat(new AdminGuard("t", true).mode()).isEqualTo(AdminGuard.Mode.TOKEN);
        assertThat(new AdminGuard(" ", false).mode()).isEqualTo(AdminGuard.Mode.LOOPBACK);
        assertThat(new AdminGuard(null, true).mode()).isEqualTo(AdminGuard.Mode.OPEN);
    }

    @ParameterizedTest
    @CsvSource({
        "127.0.0.1, 127.0.0.1, 127.0.0.1:8080",
        "127.0.0.1, 127.0.0.1, 127.0.0.1",
        "127.0.0.1, 127.0.0.1, localhost:8080",
        "127.0.0.1, 127.0.0.1, LocalHost",
        "127.0.0.1, 127.0.0.1, 127.0.0.2:8080",
        "0:0:0:0:0:0:0:1, 0:0:0:0:0:0:0:1, [::1]:8080",
        "0:0:0:0:0:0:0:1, 0:0:0:0:0:0:0:1, [0:0:0:0:0:0:0:1]",
        "127.0.0.1, 127.0.0.1, "
    })
    void without_a_token_a_program_on_this_host_is_answered(String peer, String remote, String host) throws Exception {
        assertThat(verdict(loopback, call(peer, remote, host))).isZero();
    }

    @ParameterizedTest
    @CsvSource({
        // X-Forwarded-For: 127.0.0.1 from fd12::2, turned into the remote address by forward-headers-strategy
        "fd12:0:0:0:0:0:0:2, 127.0.0.1",
        "192.0.2.7, 127.0.0.1",
        // a proxy on this host that forwarded for a caller elsewhere
        "127.0.0.1, 10.0.0.5",
        "192.0.2.7, 192.0.2.7"
    })
    void without_a_token_a_caller_elsewhere_is_refused_whatever_forwarded_headers_made_of_it(String peer, String remote)
            throws Exception {
        assertThat(verdict(loopback, call(peer, remote, "127.0.0.1:8080"))).isEqualTo(403);
    }

    @Test
    void without_a_recorded_peer_nobody_is_a_local_caller() throws Exception {
        assertThat(verdict(loopback, call(null, "127.0.0.1", "127.0.0.1:8080"))).isEqualTo(403);
    }

    @ParameterizedTest
    @CsvSource({
        "X-Forwarded-For, 10.0.0.5",
        "Forwarded, for=10.0.0.5",
        "X-Real-IP, 10.0.0.5",
        "X-Forwarded-For, 127.0.0.1"
    })
    void a_request_a_proxy_on_this_host_says_it_relayed_is_refused(String header, String value) throws Exception {
        MockHttpServletRequest request = local();
        request.addHeader(header, value);
        assertThat(verdict(loopback, request)).isEqualTo(403);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "evil.example",
                "evil.example:8080",
                "127.0.0.1.nip.io:8080",
                "localhost.evil.example",
                "192.0.2.2:8080",
                "[fd00::2]:8080",
                "[::1",
                "127.0.0.1:8080:1",
                "127.0.0.1:x",
                "127.1:8080",
                "localhost:8080@evil.example"
            })
    void without_a_token_a_host_header_that_is_no_loopback_name_is_refused(String host) throws Exception {
        assertThat(verdict(loopback, call("127.0.0.1", "127.0.0.1", host)))
                .as(host)
                .isEqualTo(403);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "Origin | http://evil.example",
                "Origin | null",
                "Origin | http://127.0.0.1:9999",
                "Origin | https://127.0.0.1:8080",
                "Origin | http://localhost:8080",
                "Origin | http://127.0.0.1:8080/",
                "Origin | 127.0.0.1:8080",
                "Sec-Fetch-Site | cross-site",
                "Sec-Fetch-Site | same-site",
                "Sec-Fetch-Site | something-new"
            })
    void without_a_token_a_browser_call_for_a_page_of_another_origin_is_refused(String header, String value)
            throws Exception {
        MockHttpServletRequest request = local();
        request.addHeader(header, value);
        assertThat(verdict(loopback, request)).as(header + ": " + value).isEqualTo(403);
        assertThat(verdict(open, request)).as("open, " + header + ": " + value).isEqualTo(403);
    }

    @Test
    void a_cross_site_mark_wins_over_an_origin_of_its_own() throws Exception {
        MockHttpServletRequest request = local();
        request.addHeader("Origin", "http://127.0.0.1:8080");
        request.addHeader("Sec-Fetch-Site", "cross-site");
        assertThat(verdict(loopback, request)).isEqualTo(403);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "127.0.0.1:8080 | http://127.0.0.1:8080 | same-origin",
                "127.0.0.1:8080 | | none",
                "localhost | http://localhost:80 | same-origin",
                "LOCALHOST:8080 | http://localhost:8080 | ",
                "[::1]:8080 | http://[::1]:8080 | same-origin"
            })
    void the_console_served_by_the_gateway_itself_is_answered(String host, String origin, String site)
            throws Exception {
        MockHttpServletRequest request = call("127.0.0.1", "127.0.0.1", host);
        if (origin != null) {
            request.addHeader("Origin", origin);
        }
        if (site != null) {
            request.addHeader("Sec-Fetch-Site", site);
        }
        assertThat(verdict(loopback, request)).isZero();
        assertThat(verdict(open, request)).isZero();
    }

    @Test
    void open_answers_any_address_and_any_host_name_but_not_a_page_of_another_origin() throws Exception {
        assertThat(verdict(open, call("192.0.2.7", "192.0.2.7", "gateway.example:8080")))
                .isZero();
        MockHttpServletRequest fromPage = call("192.0.2.7", "192.0.2.7", "gateway.example:8080");
        fromPage.addHeader("Origin", "http://evil.example");
        assertThat(verdict(open, fromPage)).isEqualTo(403);
    }

    @Test
    void with_a_token_set_every_address_needs_it_and_no_other_rule_applies() throws Exception {
        assertThat(verdict(withToken, local())).isEqualTo(401);
        MockHttpServletRequest remote = call("192.0.2.7", "192.0.2.7", "gateway.example:8080");
        assertThat(verdict(withToken, remote)).isEqualTo(401);
        remote.addHeader("X-Admin-Token", TOKEN);
        assertThat(verdict(withToken, remote)).isZero();
        // a browser never adds the token by itself: a page that has it is the operator's own
        MockHttpServletRequest console = call("192.0.2.7", "192.0.2.7", "gateway.example:8080");
        console.addHeader("Authorization", "Bearer " + TOKEN);
        console.addHeader("Origin", "http://console.example");
        console.addHeader("Sec-Fetch-Site", "cross-site");
        assertThat(verdict(withToken, console)).isZero();
    }

    @Test
    void ordinary_handlers_are_never_checked() throws Exception {
        MockHttpServletRequest request = call("192.0.2.7", "192.0.2.7", "evil.example");
        request.addHeader("Origin", "http://evil.example");
        HandlerMethod ordinary = new HandlerMethod(new Object(), Object.class.getMethod("toString"));
        assertThatCode(() -> loopback.preHandle(request, new MockHttpServletResponse(), ordinary))
                .doesNotThrowAnyException();
    }

    private static final String CHROME =
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

    /** A link opened from outside the browser (typed, from a mail or a chat): Sec-Fetch-Site none. */
    private static MockHttpServletRequest typedLink(String method, String peer, String host) {
        MockHttpServletRequest request = call(peer, peer, host);
        request.setMethod(method);
        request.addHeader("Sec-Fetch-Site", "none");
        request.addHeader("Sec-Fetch-Mode", "navigate");
        request.addHeader("Sec-Fetch-Dest", "document");
        request.addHeader("Sec-Fetch-User", "?1");
        request.addHeader("Upgrade-Insecure-Requests", "1");
        request.addHeader("User-Agent", CHROME);
        return request;
    }

    @Test
    void a_link_opened_in_a_browser_changes_nothing_but_may_show_what_is_read_only() throws Exception {
        for (AdminGuard guard : List.of(loopback, open)) {
            assertThat(verdict(guard, typedLink("GET", "127.0.0.1", "127.0.0.1:8080"), "clearAll"))
                    .as(guard.mode() + ": GET /clearAll")
                    .isEqualTo(403);
            assertThat(verdict(guard, typedLink("POST", "127.0.0.1", "127.0.0.1:8080"), "wipe"))
                    .as(guard.mode() + ": a form's POST")
                    .isEqualTo(403);
            assertThat(verdict(guard, typedLink("GET", "127.0.0.1", "127.0.0.1:8080"), "wipe"))
                    .as(guard.mode() + ": a read-only GET")
                    .isZero();
        }
        // on plain http to an address a browser sends no Sec-Fetch-*, still its User-Agent
        MockHttpServletRequest image = call("192.0.2.7", "192.0.2.7", "192.0.2.1:8080");
        image.addHeader("User-Agent", CHROME);
        assertThat(verdict(open, image, "clearAll")).isEqualTo(403);
    }

    @Test
    void scripts_and_the_console_still_change_state() throws Exception {
        assertThat(verdict(loopback, local(), "clearAll")).as("curl").isZero();
        MockHttpServletRequest console = local();
        console.setMethod("POST");
        console.addHeader("Origin", "http://127.0.0.1:8080");
        console.addHeader("Sec-Fetch-Site", "same-origin");
        console.addHeader("Sec-Fetch-Mode", "cors");
        console.addHeader("Sec-Fetch-Dest", "empty");
        console.addHeader("User-Agent", CHROME);
        assertThat(verdict(loopback, console, "wipe")).as("the console's POST").isZero();
        MockHttpServletRequest withToken = typedLink("GET", "192.0.2.7", "gateway.example:8080");
        withToken.addHeader("X-Admin-Token", TOKEN);
        assertThat(verdict(this.withToken, withToken, "clearAll"))
                .as("with the token")
                .isZero();
    }

    @Test
    void open_mode_refuses_a_browser_naming_the_gateway_by_an_unknown_name() throws Exception {
        AdminGuard listing = new AdminGuard(null, true, new AllowedHosts(List.of("gateway.example"), List.of(), false));
        for (AdminGuard guard : List.of(open, listing)) {
            MockHttpServletRequest rebound = call("127.0.0.1", "127.0.0.1", "evil.example:8080");
            rebound.addHeader("User-Agent", CHROME);
            rebound.addHeader("Sec-Fetch-Site", "same-origin");
            assertThat(verdict(guard, rebound)).as("Host: evil.example").isEqualTo(403);
            MockHttpServletRequest local = call("127.0.0.1", "127.0.0.1", "localhost:8080");
            local.addHeader("User-Agent", CHROME);
            assertThat(verdict(guard, local)).as("Host: localhost").isZero();
        }
        MockHttpServletRequest listed = call("192.0.2.7", "192.0.2.7", "gateway.example:8080");
        listed.addHeader("User-Agent", CHROME);
        assertThat(verdict(listing, listed)).as("a listed name").isZero();
        assertThat(verdict(open, listed)).as("the same name, not listed").isEqualTo(403);
    }

    @Test
    void head_runs_no_admin_get_that_changes_state_for_a_caller_the_guard_lets_through() throws Exception {
        MockHttpServletRequest head = local();
        head.setMethod("HEAD");
        MockHttpServletResponse response = new MockHttpServletResponse();
        HandlerMethod clearAll = new HandlerMethod(new Handlers(), Handlers.class.getMethod("clearAll"));
        assertThat(loopback.preHandle(head, response, clearAll)).isFalse();
        assertThat(response.getStatus()).isEqualTo(405);
        assertThat(response.getHeader("Allow")).isEqualTo("GET");
        HandlerMethod readOnly = new HandlerMethod(new Handlers(), Handlers.class.getMethod("wipe"));
        assertThat(loopback.preHandle(head, new MockHttpServletResponse(), readOnly))
                .isTrue();
    }
}
