package io.mykit.delay.controller;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code mykit.delay.http.legacy-status=true}: the original mykit-delay answered every call with HTTP 200 and put the
 * outcome in the envelope ({@code success}, {@code code}); clients written against it check only those. Every status
 * this gateway sets becomes 200 on the wire; the envelope already carries the real one in {@code code}. An error the
 * container reports ({@code sendError}) still goes through the JSON error page, whose status is turned to 200 too.
 */
public class LegacyStatusFilter extends OncePerRequestFilter {

    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }

    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(request, new HttpServletResponseWrapper(response) {
            @Override
            public void setStatus(int sc) {
                super.setStatus(HttpServletResponse.SC_OK);
            }
        });
    }
}
