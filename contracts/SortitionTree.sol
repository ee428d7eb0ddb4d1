// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title Stake-weighted sortition over a pool that changes, read as of a past block.
/// @notice A Fenwick (binary indexed) tree of judge weights in which every node keeps checkpoints
/// (block, value). A draw walks the tree once (O(log n) node reads) using the weights as they were
/// at a given block, so nobody can steer a draw by staking or unstaking after its randomness exists.
/// Leaves are numbered from 1. A judge whose weight drops to zero gives its leaf back and the next
/// new judge reuses it: the node history stays, and each leaf remembers the block its current owner
/// took it, so a draw reading an earlier block never credits the new owner with the old one's weight
/// (`ownerAt`). Churn (stake, unstake, repeat) therefore never uses up the tree.
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
        /// @dev The block in which the leaf's current owner took it.
        mapping(uint256 => uint256) takenAt;
        /// @dev Leaves handed out so far (the highest leaf number), and leaves given back since.
        uint256 leaves;
        uint256[] free;
        /// @dev How many owners have a weight above zero now.
        uint256 members;
    }

    /// @notice Sets `who`'s weight from now on; zero takes it out of draws and gives its leaf back.
    function setWeight(Tree storage t, address who, uint256 weight) internal {
        uint256 old = t.weightOf[who];
        if (old == weight) return;
        uint256 leaf = t.leafOf[who];
        if (leaf == 0) {
            uint256 nFree = t.free.length;
            if (nFree > 0) {
                leaf = t.free[nFree - 1];
                t.free.pop();
            } else {
                if (t.leaves == CAPACITY) revert PoolFull(CAPACITY);
                leaf = ++t.leaves;
            }
            t.leafOf[who] = leaf;
            t.ownerOf[leaf] = who;
            t.takenAt[leaf] = block.number;
            t.members += 1;
        }
        t.weightOf[who] = weight;
        if (weight == 0) {
            // The leaf's history keeps the weight for draws that read an earlier block; `ownerOf`
            // keeps the owner until the next one takes it.
            t.leafOf[who] = 0;
            t.free.push(leaf);
            t.members -= 1;
        }
        bool up = weight > old;
        uint256 delta = up ? weight - old : old - weight;
        for (uint256 i = leaf; i <= CAPACITY; i += i & (~i + 1)) {
            uint256 v = _latest(t.nodes[i]);
            _write(t.nodes[i], up ? v + delta : v - delta);
        }
    }

    /// @notice Who held `leaf` at the end of block `atBlock`: its owner, or zero when the owner
    /// took it later (the one who held it then has left, and cannot be drawn).
    function ownerAt(Tree storage t, uint256 leaf, uint64 atBlock) internal view returns (address) {
        return t.takenAt[leaf] <= atBlock ? t.ownerOf[leaf] : address(0);
    }

    /// @notice The sum of all weights now.
    function latestTotal(Tree storage t) internal view returns (uint256) {
        return _latest(t.nodes[CAPACITY]);
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
