package io.mykit.delay.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.mykit.delay.common.tenant.Tenant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.method.HandlerMethod;

/** The data-plane rules for browsers on request objects: what a page of another origin or a rebound name sends. */
class BrowserGuardTest {
    private static final String CHROME =
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    private static final String ADMIN_TOKEN = "admin-secret";

    private final BrowserGuard guard = guard(false);

    /** Stands for the data plane's handlers. */
    @DataPlane
    static class Handlers {
        @ChangesState
        public void reserve() {}

        public void read() {}

        public void cancel() {}
    }

    private static BrowserGuard guard(boolean only) {
        AllowedHosts hosts = new AllowedHosts(List.of("gateway.internal", "*.svc.cluster.local"), List.of(), only);
        return new BrowserGuard(new AdminGuard(null, false, hosts), hosts);
    }

    private static MockHttpServletRequest call(String method, String host, String... headers) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, "/x");
        request.addHeader("Host", host);
        for (int i = 0; i < headers.length; i += 2) {
            request.addHeader(headers[i], headers[i + 1]);
        }
        return request;
    }

    /** The status the guard answers, 0 when the handler would run. */
    private static int verdict(BrowserGuard guard, MockHttpServletRequest request, String handler) throws Exception {
        HandlerMethod method = new HandlerMethod(new Handlers(), Handlers.class.getMethod(handler));
        MockHttpServletResponse response = new MockHttpServletResponse();
        TenantAccessException refused = catchThrowableOfType(
                TenantAccessException.class,
                () -> assertThat(guard.preHandle(request, response, method)).isTrue());
        if (refused != null) {
            return refused.status();
        }
        return response.getStatus() == 200 ? 0 : response.getStatus();
    }

    @Test
    void a_page_of_another_origin_neither_reserves_nor_reads_nor_cancels() throws Exception {
        for (String handler : List.of("reserve", "read")) {
            assertThat(verdict(guard, call("GET", "127.0.0.1:8080", "Sec-Fetch-Site", "cross-site"), handler))
                    .as(handler)
                    .isEqualTo(403);
        }
        assertThat(verdict(guard, call("DELETE", "127.0.0.1:8080", "Origin", "http://evil.example"), "cancel"))
                .isEqualTo(403);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // an <img>, a link and a typed address on loopback; an <img> on plain http to an address
                "127.0.0.1:8080 | Sec-Fetch-Site=same-origin&Sec-Fetch-Mode=no-cors&Sec-Fetch-Dest=image",
                "127.0.0.1:8080 | Sec-Fetch-Site=none&Sec-Fetch-Mode=navigate&Sec-Fetch-Dest=document",
                "10.0.0.5:8080 | User-Agent=" + CHROME + "&Accept=image/avif",
                "10.0.0.5:8080 | Referer=http://10.0.0.5:8080/"
            })
    void a_browser_never_runs_a_get_that_changes_state(String host, String headers) throws Exception {
        assertThat(verdict(guard, call("GET", host, split(headers)), "reserve")).isEqualTo(403);
    }

    @Test
    void a_page_of_the_gateway_itself_changes_state_by_script_but_not_by_loading_a_page() throws Exception {
        String[] script = {"Sec-Fetch-Site", "same-origin", "Sec-Fetch-Mode", "cors", "Sec-Fetch-Dest", "empty"};
        assertThat(verdict(guard, call("DELETE", "127.0.0.1:8080", script), "cancel"))
                .isZero();
        assertThat(verdict(guard, call("GET", "127.0.0.1:8080", script), "read"))
                .isZero();
        assertThat(verdict(
                        guard,
                        call("POST", "127.0.0.1:8080", "Sec-Fetch-Site", "same-origin", "Sec-Fetch-Mode", "navigate"),
                        "cancel"))
                .isEqualTo(403);
        assertThat(verdict(guard, call("POST", "10.0.0.5:8080", "Upgrade-Insecure-Requests", "1"), "cancel"))
                .isEqualTo(403);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"evil.example:8080", "127.0.0.1.nip.io", "gateway.internal.evil.example", "svc.cluster.local"})
    void a_browser_naming_the_gateway_by_an_unknown_name_is_refused(String host) throws Exception {
        assertThat(verdict(guard, call("GET", host, "User-Agent", CHROME), "read"))
                .as(host)
                .isEqualTo(403);
        assertThat(verdict(guard, call("GET", host, "Sec-Fetch-Site", "same-origin"), "read"))
                .as(host)
                .isEqualTo(403);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "localhost:8080",
                "LOCALHOST",
                "app.localhost:8080",
                "127.0.0.1:8080",
                "10.0.0.5",
                "[::1]:8080",
                "[fd00::5]",
                "gateway.internal:8080",
                "Gateway.Internal",
                "delay.ns.svc.cluster.local"
            })
    void a_browser_naming_the_gateway_by_an_address_or_a_known_name_is_answered(String host) throws Exception {
        assertThat(verdict(guard, call("GET", host, "User-Agent", CHROME), "read"))
                .as(host)
                .isZero();
    }

    @Test
    void a_program_may_call_by_any_name_unless_only_listed_names_are_allowed() throws Exception {
        assertThat(verdict(guard, call("GET", "delay-gateway:8080", "User-Agent", "curl/8.5"), "reserve"))
                .isZero();
        assertThat(verdict(guard, call("GET", "delay-gateway:8080"), "reserve")).isZero();
        assertThat(verdict(guard(true), call("GET", "delay-gateway:8080"), "reserve"))
                .isEqualTo(403);
        assertThat(verdict(guard(true), call("GET", "gateway.internal:8080"), "reserve"))
                .isZero();
    }

    @Test
    void head_never_runs_a_get_that_changes_state_even_with_a_token() throws Exception {
        MockHttpServletRequest head = call("HEAD", "127.0.0.1:8080", "Authorization", "Bearer " + ADMIN_TOKEN);
        head.setAttribute(Caller.ATTRIBUTE, Caller.ADMIN);
        HandlerMethod reserve = new HandlerMethod(new Handlers(), Handlers.class.getMethod("reserve"));
        MockHttpServletResponse response = new MockHttpServletResponse();
        assertThat(guard.preHandle(head, response, reserve)).isFalse();
        assertThat(response.getStatus()).isEqualTo(405);
        assertThat(response.getHeader("Allow")).isEqualTo("GET");
        assertThat(verdict(guard, call("HEAD", "127.0.0.1:8080"), "read")).isZero();
    }

    @Test
    void a_token_passes_whatever_the_browser_says() throws Exception {
        String[] page = {"Origin", "http://console.example", "Sec-Fetch-Site", "cross-site", "User-Agent", CHROME};
        Tenant orders = new Tenant("orders", List.of("orders-token"), Tenant.patterns("orders-*"), Tenant.Limits.NONE);
        MockHttpServletRequest tenant = call("GET", "evil.example", page);
        tenant.setAttribute(Caller.ATTRIBUTE, Caller.tenant(orders, TenantEvents.NONE));
        assertThat(verdict(guard, tenant, "reserve")).isZero();

        BrowserGuard withAdminToken = new BrowserGuard(new AdminGuard(ADMIN_TOKEN, false), AllowedHosts.loopbackOnly());
        MockHttpServletRequest admin = call("GET", "evil.example", page);
        admin.addHeader("X-Admin-Token", ADMIN_TOKEN);
        assertThat(verdict(withAdminToken, admin, "reserve")).isZero();
        MockHttpServletRequest wrong = call("GET", "evil.example", page);
        wrong.addHeader("X-Admin-Token", "guess");
        assertThat(verdict(withAdminToken, wrong, "reserve")).isEqualTo(403);
    }

    @Test
    void the_tokenless_default_tenant_is_checked_like_no_tenant() throws Exception {
        Tenant open = new Tenant("default", List.of(), Tenant.patterns("*"), Tenant.Limits.NONE);
        MockHttpServletRequest request = call("GET", "127.0.0.1:8080", "Sec-Fetch-Site", "cross-site");
        request.setAttribute(Caller.ATTRIBUTE, Caller.tenant(open, TenantEvents.NONE));
        assertThat(verdict(guard, request, "reserve")).isEqualTo(403);
    }

    /** {@code name=value&name=value} as name, value, name, value. */
    private static String[] split(String headers) {
        return java.util.Arrays.stream(headers.split("&"))
                .flatMap(header -> java.util.Arrays.stream(header.split("=", 2)))
                .toArray(String[]::new);
    }
}
