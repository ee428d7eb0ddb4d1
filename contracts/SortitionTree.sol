// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title Stake-weighted sortition over a pool that changes, read as of a past block.
/// @notice A Fenwick (binary indexed) tree of judge weights in which every node keeps checkpoints
/// (block, value). A draw walks the tree once (O(log n) node reads) using the weights as they were
/// at a given block, so nobody can steer a draw by staking or unstaking after its randomness exists.
/// Leaves are numbered from 1 in the order judges first stake; a leaf is never reused.
library SortitionTree {
    /// @dev Leaves 1..CAPACITY. 2^16 judges ever; the Fenwick node CAPACITY holds the total.
    uint256 internal constant CAPACITY = 1 << 16;

    error PoolFull(uint256 capacity);

    struct Checkpoint {
        uint64 blockNumber;
        uint192 value;
    }

    struct Tree {
        mapping(uint256 => Checkpoint[]) nodes;
        mapping(uint256 => address) ownerOf;
        mapping(address => uint256) leafOf;
        mapping(address => uint256) weightOf;
        uint256 leaves;
    }

    /// @notice Sets `who`'s weight from now on (0 takes it out of draws; its leaf stays).
    function setWeight(Tree storage t, address who, uint256 weight) internal {
        uint256 old = t.weightOf[who];
        if (old == weight) return;
        uint256 leaf = t.leafOf[who];
        if (leaf == 0) {
            if (t.leaves == CAPACITY) revert PoolFull(CAPACITY);
            leaf = ++t.leaves;
            t.leafOf[who] = leaf;
            t.ownerOf[leaf] = who;
        }
        t.weightOf[who] = weight;
        bool up = weight > old;
        uint256 delta = up ? weight - old : old - weight;
        for (uint256 i = leaf; i <= CAPACITY; i += i & (~i + 1)) {
            uint256 v = _latest(t.nodes[i]);
            _write(t.nodes[i], up ? v + delta : v - delta);
        }
    }

    /// @notice The sum of all weights as they were at the end of block `atBlock`.
    function totalAt(Tree storage t, uint64 atBlock) internal view returns (uint256) {
        return valueAt(t.nodes[CAPACITY], atBlock);
    }

    /// @notice The sum of the weights of leaves 1..leaf at the end of block `atBlock`.
    function prefixAt(Tree storage t, uint256 leaf, uint64 atBlock) internal view returns (uint256 sum) {
        for (uint256 i = leaf; i > 0; i -= i & (~i + 1)) {
            sum += valueAt(t.nodes[i], atBlock);
        }
    }

    /// @notice The leaf whose weight range holds `point` (0 <= point < totalAt), and where that
    /// range starts: leaf k covers [prefix(k-1), prefix(k)).
    function find(Tree storage t, uint256 point, uint64 atBlock) internal view returns (uint256 leaf, uint256 start) {
        uint256 pos = 0;
        uint256 rest = point;
        for (uint256 step = CAPACITY >> 1; step > 0; step >>= 1) {
            uint256 v = valueAt(t.nodes[pos + step], atBlock);
            if (v <= rest) {
                pos += step;
                rest -= v;
            }
        }
        return (pos + 1, point - rest);
    }

    /// @notice A node's value at the end of block `atBlock`: the last checkpoint at or before it.
    function valueAt(Checkpoint[] storage cps, uint64 atBlock) internal view returns (uint256) {
        uint256 n = cps.length;
        if (n == 0) return 0;
        Checkpoint storage last = cps[n - 1];
        // The common case: the node has not changed since.
        if (last.blockNumber <= atBlock) return last.value;
        uint256 lo = 0;
        uint256 hi = n - 1;
        // Invariant: cps[hi] is after atBlock; the answer is the last index below hi at or before it.
        while (lo < hi) {
            uint256 mid = (lo + hi) / 2;
            if (cps[mid].blockNumber <= atBlock) lo = mid + 1;
            else hi = mid;
        }
        return lo == 0 ? 0 : cps[lo - 1].value;
    }

    function _latest(Checkpoint[] storage cps) private view returns (uint256) {
        uint256 n = cps.length;
        return n == 0 ? 0 : cps[n - 1].value;
    }

    /// @dev Always a new checkpoint, even when the last one is from this block: overwriting it would
    /// be cheaper, but a gas estimate run in the previous block's context would then price the
    /// overwrite and the transaction, mined in a new block, would run out of gas. `valueAt` reads the
    /// last checkpoint at or before a block, so several in one block are fine.
    function _write(Checkpoint[] storage cps, uint256 value) private {
        cps.push(Checkpoint(uint64(block.number), uint192(value)));
    }
}
