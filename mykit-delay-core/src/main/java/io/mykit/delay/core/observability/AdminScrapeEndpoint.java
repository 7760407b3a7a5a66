package io.mykit.delay.core.observability;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.Set;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.metrics.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.actuate.metrics.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.lang.Nullable;

/**
 * /actuator/prometheus with the per-tenant series ({@value #TENANT_SERIES}*, tagged with tenant names and volumes) in
 * the admin's scrape only: any other caller gets every other series, in the text formats.
 */
final class AdminScrapeEndpoint extends PrometheusScrapeEndpoint {
    static final String TENANT_SERIES = "mykit_delay_tenant_";

    AdminScrapeEndpoint(PrometheusRegistry registry, Properties exporterProperties) {
        super(registry, exporterProperties);
    }

    @Override
    @ReadOperation(producesFrom = PrometheusOutputFormat.class)
    public WebEndpointResponse<byte[]> scrape(PrometheusOutputFormat format, @Nullable Set<String> includedNames) {
        if (AdminCaller.asking()) {
            return super.scrape(format, includedNames);
        }
        // the binary format cannot be filtered by line: others get the text format instead
        PrometheusOutputFormat text = format == PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF
                ? PrometheusOutputFormat.CONTENT_TYPE_004
                : format;
        WebEndpointResponse<byte[]> whole = super.scrape(text, includedNames);
        if (whole.getBody() == null) {
            return whole;
        }
        return new WebEndpointResponse<>(
                withoutTenantSeries(whole.getBody()), whole.getStatus(), whole.getContentType());
    }

    /** Every line (sample, HELP, TYPE, UNIT) but those of the tenant series. */
    static byte[] withoutTenantSeries(byte[] scrape) {
        StringBuilder kept = new StringBuilder(scrape.length);
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(new ByteArrayInputStream(scrape), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (!seriesName(line).startsWith(TENANT_SERIES)) {
                    kept.append(line).append('\n');
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return kept.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The metric name a line is about: "# TYPE name counter", "name{labels} 1.0", "name 1.0". */
    private static String seriesName(String line) {
        String rest = line;
        if (rest.startsWith("# ")) {
            int space = rest.indexOf(' ', 2);
            rest = space < 0 ? "" : rest.substring(space + 1);
        }
        int end = 0;
        while (end < rest.length() && rest.charAt(end) != '{' && rest.charAt(end) != ' ') {
            end++;
        }
        return rest.substring(0, end);
    }
}
