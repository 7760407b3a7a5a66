package io.mykit.delay.config;

import java.util.ArrayList;
import java.util.List;

/** {@code mykit.delay.tenants.<name>.*}: one service sharing the gateway, its tokens, topics and limits. */
public class TenantProperties {
    /** Tokens the tenant may present as {@code Authorization: Bearer <token>}; two while one is rotated. */
    private List<String> tokens = new ArrayList<>();
    /** One token, the same as a one-element {@code tokens}. */
    private String token;
    /** Comma-separated topic patterns; {@code *} matches any run of characters; no topic may match two tenants'. */
    private String topics;
    /** Jobs pushed per second (each job of a batch counts; a batch of more than a second's worth is 400); 0 = none. */
    private double pushRate = 0;
    /** Most jobs pending across the tenant's topics (waiting, ready or reserved), pushes and respawns; 0 = no limit. */
    private long maxPending = 0;
    /** Most long-polls the tenant may hold open at once; 0 = no limit. */
    private int maxPolls = 0;
    /** Streams open at once on one node; 0 = an equal share of mykit.delay.stream.max-streams. */
    private int maxStreams = 0;

    public List<String> getTokens() {
        return tokens;
    }

    public void setTokens(List<String> tokens) {
        this.tokens = tokens;
    }

    public String getToken() {
        return token;
    }

    public void setToken(String token) {
        this.token = token;
    }

    public String getTopics() {
        return topics;
    }

    public void setTopics(String topics) {
        this.topics = topics;
    }

    public double getPushRate() {
        return pushRate;
    }

    public void setPushRate(double pushRate) {
        this.pushRate = pushRate;
    }

    public long getMaxPending() {
        return maxPending;
    }

    public void setMaxPending(long maxPending) {
        this.maxPending = maxPending;
    }

    public int getMaxStreams() {
        return maxStreams;
    }

    public void setMaxStreams(int maxStreams) {
        this.maxStreams = maxStreams;
    }

    public int getMaxPolls() {
        return maxPolls;
    }

    public void setMaxPolls(int maxPolls) {
        this.maxPolls = maxPolls;
    }

    /** {@code tokens} and {@code token} together, blanks left out. */
    public List<String> allTokens() {
        List<String> all = new ArrayList<>();
        if (tokens != null) {
            tokens.stream()
                    .filter(t -> t != null && !t.isBlank())
                    .map(String::trim)
                    .forEach(all::add);
        }
        if (token != null && !token.isBlank()) {
            all.add(token.trim());
        }
        return all;
    }
}
