package io.mykit.delay.queue.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FenceTokensTest {

    @Test
    void tokensAreFixedWidthSoStringOrderIsNumberOrder() {
        long beyondDoubles = (1L << 53) + 1;
        String higher = FenceTokens.format(beyondDoubles);
        String lower = FenceTokens.format(beyondDoubles - 1);
        assertThat(higher).hasSize(20);
        assertThat(higher.compareTo(lower)).isPositive();
        assertThat(FenceTokens.format(9).compareTo(FenceTokens.format(10))).isNegative();
        assertThat(FenceTokens.format(Long.MAX_VALUE)).isEqualTo("09223372036854775807");
        assertThatThrownBy(() -> FenceTokens.format(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aZooKeeperNodeStartsWithTheLowestTokenNotTheUncheckedOne() {
        FenceTokens fenced = FenceTokens.fenced(2);
        assertThat(fenced.token(1)).isEqualTo(FenceTokens.format(0)).isNotEmpty();
        assertThat(new FenceTokens(2).token(1)).isEmpty();
    }

    @Test
    void aRefusalIsCountedAndReported() {
        FenceTokens fence = new FenceTokens(4);
        int[] told = {-1};
        fence.onFenced(bucket -> told[0] = bucket);
        assertThat(fence.token(3)).isEmpty();
        FencedException refused = fence.refused(3);
        assertThat(refused.bucket()).isEqualTo(3);
        assertThat(told[0]).isEqualTo(3);
        assertThat(fence.refusals()).isEqualTo(1);
    }
}
