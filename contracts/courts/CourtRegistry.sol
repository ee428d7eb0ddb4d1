// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {JudgeResult, CaseTerms, CourtConfig} from "../interfaces/CourtTypes.sol";
import {ICourtRegistry} from "../interfaces/ICourtRegistry.sol";
import {ICaseOutcomeHook} from "../interfaces/ICaseOutcomeHook.sol";
import {ICaseRecord} from "../interfaces/ICaseRecord.sol";
import {RegistryBase} from "./RegistryBase.sol";
import {RegistryBook} from "./RegistryBook.sol";
import {SortitionTree} from "./SortitionTree.sol";

/// @title Courts, agents, judges and their records.
/// @notice Courts form a tree under the General court (id 1, the root and the default); each has a
/// name, a policy document (a CID of its rules) and the terms its cases copy at filing. Only the
/// owner creates courts and changes them. Agents register themselves; judges stake the chain's
/// native coin into courts; a stake in a court also counts in every court above it (as in Kleros),
/// so a judge of a specialised court can be drawn in the General court too.
/// Only case contracts created by the factory may touch judge stakes and records.
/// Draws are stake-weighted per court: a judge's chance is its counted stake over the court's pool,
/// read from that court's checkpointed sum tree as of the block a case's draw was armed (see SortitionTree).
/// Money: the registry holds exactly the judges' stakes plus the treasury (court fees and slashes).
/// Roles: this contract holds the hot paths (agents registering, stakes, draws, the case callbacks,
/// the treasury); court administration and the paged reads live in RegistryBook, reached through
/// the fallback on this contract's storage; the storage layout is RegistryBase; the per-court draw
/// trees are the SortitionTree library.
contract CourtRegistry is RegistryBase, ICourtRegistry {
    using SortitionTree for SortitionTree.Tree;

    /// @notice The code court administration and the paged reads run (see RegistryBook).
    /// @return The RegistryBook this registry deployed.
    address public immutable book;

    /// @param slashBps_ The share of a judge's stakes taken for a minority vote or a no-show.
    /// @param generalPolicy The CID of the General court's policy document.
    /// @param general The General court's minimum judge stake and case terms.
    constructor(uint16 slashBps_, string memory generalPolicy, CourtConfig memory general) {
        if (slashBps_ > 10_000) revert InvalidParameter();
        book = address(new RegistryBook());
        owner = msg.sender;
        slashBps = slashBps_;
        _createCourt(0, "General", generalPolicy, general);
    }

    /// @notice Court administration and the paged reads (RegistryBook): any call this contract does
    /// not answer itself runs that code on this contract's storage, as if it were here.
    fallback() external {
        address b = book;
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), b, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }

    modifier onlyCase() {
        if (!isCase[msg.sender]) revert OnlyCase();
        _;
    }

    /// @notice Links the factory, once, right after both are deployed.
    /// @param factory_ The CaseFactory.
    function setFactory(address factory_) external {
        if (msg.sender != owner) revert OnlyOwner();
        if (factory != address(0)) revert FactoryAlreadySet();
        factory = factory_;
    }

    /// @notice The factory marks a new case, which may then touch judge stakes and records.
    /// @param caseAddr The case.
    function registerCase(address caseAddr) external {
        if (msg.sender != factory) revert OnlyFactory();
        isCase[caseAddr] = true;
    }

    // ------------------------------------------------------------------ agents

    /// @notice Registers the caller as an agent, or updates its name and metadata URI.
    /// The agent id (ERC-8004 style) is assigned once, in registration order, from 1.
    /// @param name Its name (1 to 64 bytes).
    /// @param metadataURI Its metadata URI (at most 512 bytes).
    function selfRegister(string calldata name, string calldata metadataURI) external {
        uint256 nameLength = bytes(name).length;
        if (nameLength == 0) revert NameRequired();
        if (nameLength > MAX_NAME_LENGTH) revert NameTooLong(MAX_NAME_LENGTH);
        if (bytes(metadataURI).length > MAX_URI_LENGTH) revert UriTooLong(MAX_URI_LENGTH);
        Agent storage a = agents[msg.sender];
        a.name = name;
        a.metadataURI = metadataURI;
        if (a.agentId == 0) {
            agentList.push(msg.sender);
            a.agentId = agentList.length;
            a.registeredAt = uint64(block.timestamp);
            emit AgentRegistered(msg.sender, a.agentId, name, metadataURI);
        } else {
            emit AgentUpdated(msg.sender, a.agentId, name, metadataURI);
        }
    }

    /// @notice What a case filed in `courtId` copies: the court (0 means the General court), the
    /// court whose pool hears its appeal (the parent when the appeal panel reaches the jump size),
    /// and the terms.
    /// @param courtId The court named at filing; 0 for the General court.
    /// @return court The court the case is filed in.
    /// @return appealCourt The court whose pool seats its appeal.
    /// @return terms The court's terms now.
    function caseConfig(uint96 courtId) external view returns (uint96 court, uint96 appealCourt, CaseTerms memory terms) {
        court = courtId == 0 ? GENERAL_COURT : courtId;
        Court storage c = _court(court);
        terms = c.config.terms;
        uint16 jump = c.config.jumpPanelSize;
        appealCourt = c.parent != 0 && jump != 0 && terms.appealPanelSize >= jump ? c.parent : court;
    }

    // ------------------------------------------------------------------ judges

    /// @notice Adds the sent value to the caller's stake in `courtId`; that stake must reach the
    /// court's minimum. It counts in the court and every court above it.
    /// @param courtId The court (0 means the General court).
    function stakeAsJudge(uint96 courtId) external payable {
        if (courtId == 0) courtId = GENERAL_COURT;
        Court storage c = _court(courtId);
        uint256 had = _stakeIn(msg.sender, courtId);
        uint256 total = had + msg.value;
        uint256 minimum = c.config.minJudgeStake;
        if (msg.value == 0 || total < minimum) revert StakeBelowMinimum(minimum, total);
        Judge storage j = judges[msg.sender];
        if (j.stake + msg.value > type(uint88).max) revert InvalidParameter();
        if (had == 0) _listAdd(j, courtId);
        j.stake += uint88(msg.value);
        totalJudgeStake += uint128(msg.value);
        if (j.listIndex == 0) {
            _list(msg.sender, j);
            j.stakedAt = uint32(block.timestamp);
        }
        _setCourtStake(msg.sender, courtId, total);
        emit JudgeStaked(msg.sender, courtId, msg.value, total);
    }

    /// @notice Withdraws the caller's whole stake, in every court, and leaves the pool; refused while serving.
    function unstake() external {
        Judge storage j = judges[msg.sender];
        if (j.stake == 0) revert NothingStaked();
        if (j.activeCases > 0) revert JudgeServingOnOpenCase(j.activeCases);
        uint256 amount = j.stake;
        for (uint256 list = j.courts; list != 0; list >>= 8) {
            _requireNoPendingDraw(uint96(list & 0xff));
        }
        for (uint256 n = _count(j.courts); n > 0; n--) {
            _leaveCourt(msg.sender, j, n - 1);
        }
        j.stake = 0;
        totalJudgeStake -= uint128(amount);
        _leavePool(msg.sender);
        (bool ok,) = msg.sender.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }

    /// @notice Withdraws the caller's whole stake in `courtId`; refused while serving on any case.
    /// @param courtId The court (0 means the General court).
    function unstakeFrom(uint96 courtId) external {
        if (courtId == 0) courtId = GENERAL_COURT;
        Judge storage j = judges[msg.sender];
        if (j.activeCases > 0) revert JudgeServingOnOpenCase(j.activeCases);
        uint256 list = j.courts;
        uint256 n = _count(list);
        uint256 k = 0;
        while (k < n && _at(list, k) != courtId) k++;
        if (k == n) revert NotStakedInCourt(courtId);
        _requireNoPendingDraw(courtId);
        uint256 amount = _leaveCourt(msg.sender, j, k);
        j.stake -= uint88(amount);
        totalJudgeStake -= uint128(amount);
        if (j.courts == 0) _leavePool(msg.sender);
        (bool ok,) = msg.sender.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }

    /// @notice Whether `judge` can be drawn in `courtId` now: a stake of its in that court or one
    /// below it counts (it reached its court's minimum when it was last set; a minimum raised later
    /// binds from the judge's next stake change on).
    /// @param judge The judge.
    /// @param courtId The court.
    /// @return True when it can.
    function isEligibleJudgeIn(address judge, uint96 courtId) public view returns (bool) {
        return _eligibleIn(judge, courtId);
    }

    /// @notice Draws `size` distinct judges from `courtId`'s pool, each with a chance proportional
    /// to its counted stake there as it was at the end of block `atBlock`, never one of `excluded`,
    /// and only judges still eligible in that court now. Deterministic in (seed, atBlock, pool
    /// history): the caller chooses none of them.
    /// @dev Sampling without replacement: every drawn or excluded judge's weight range is cut out
    /// of the line before the next point is drawn, so no draw is wasted on a repeat.
    /// @param courtId The court whose pool is drawn from.
    /// @param seed The draw's randomness.
    /// @param atBlock The block whose end state of the pool is read.
    /// @param size How many judges.
    /// @param excluded Who may not be drawn (the parties, earlier panels).
    /// @return chosen The judges, in draw order.
    function drawPanel(uint96 courtId, bytes32 seed, uint64 atBlock, uint256 size, address[] calldata excluded)
        external
        view
        returns (address[] memory chosen)
    {
        SortitionTree.Tree storage pool = pools[courtId];
        chosen = new address[](size);
        uint256 room = excluded.length + size + MAX_SKIPS;
        Cuts memory cuts = Cuts(new uint256[](room), new uint256[](room), 0, 0);
        for (uint256 i = 0; i < excluded.length; i++) {
            uint256 leaf = _leafIn(excluded[i], courtId);
            if (leaf == 0) continue;
            (uint256 start, uint256 w) = _leafRange(pool, leaf, atBlock);
            if (w > 0 && !_isCut(cuts, start)) _cut(cuts, start, w);
        }
        _fill(courtId, seed, atBlock, cuts, chosen, excluded);
    }

    /// @dev Draws points until `chosen` is full of judges eligible in `courtId` now.
    function _fill(
        uint96 courtId,
        bytes32 seed,
        uint64 atBlock,
        Cuts memory cuts,
        address[] memory chosen,
        address[] calldata excluded
    ) private view {
        SortitionTree.Tree storage pool = pools[courtId];
        uint256 total = pool.totalAt(atBlock);
        uint256 got = 0;
        for (uint256 nonce = 0; got < chosen.length; nonce++) {
            if (total <= cuts.weight || cuts.n == cuts.start.length) revert NotEnoughJudges(got, chosen.length);
            address judge = _drawOne(pool, cuts, uint256(keccak256(abi.encode(seed, nonce))), total, atBlock);
            // Left the court or a slash took its stake below the minimum since (a judge can only take
            // itself out), or an excluded judge who left and came back under a new leaf: skipped.
            if (judge != address(0) && isEligibleJudgeIn(judge, courtId) && !_listed(excluded, judge)) {
                chosen[got++] = judge;
            }
        }
    }

    /// @notice A judge's draw weight in a court at the end of block `atBlock`, and the court's pool then.
    /// @param courtId The court.
    /// @param judge The judge.
    /// @param atBlock The block.
    /// @return weight The judge's weight then (its counted stakes in the court and those below it).
    /// @return total The court's whole pool then.
    function weightAt(uint96 courtId, address judge, uint64 atBlock) external view returns (uint256 weight, uint256 total) {
        SortitionTree.Tree storage pool = pools[courtId];
        uint256 leaf = _leafIn(judge, courtId);
        if (leaf != 0) (, weight) = _leafRange(pool, leaf, atBlock);
        total = pool.totalAt(atBlock);
    }

    // --------------------------------------------------------- case callbacks

    /// @notice A case armed a draw that reads `courtId`'s pool as of this block: the pool's tree keeps
    /// what it holds now for it (see SortitionTree).
    /// @param courtId The court whose pool the draw reads.
    /// While it waits, the judges counted in that pool cannot leave it (see DrawPendingInCourt).
    function drawArmed(uint96 courtId) external onlyCase {
        pools[courtId].markArmed();
        uint96 was = pendingDrawOf[msg.sender];
        if (was != 0) pendingDraws[was] -= 1;
        pendingDraws[courtId] += 1;
        pendingDrawOf[msg.sender] = courtId;
    }

    /// @notice The calling case's armed draw no longer waits: it seated a panel, or the case ended.
    function drawSettled() external onlyCase {
        uint96 was = pendingDrawOf[msg.sender];
        if (was == 0) return;
        pendingDraws[was] -= 1;
        delete pendingDrawOf[msg.sender];
    }

    /// @notice A case seated `judge` on its panel: one more open case (unstaking waits for none).
    /// @param judge The judge.
    function judgeAssigned(address judge) external onlyCase {
        Judge storage j = judges[judge];
        j.activeCases += 1;
        j.totalAssigned += 1;
        emit JudgeRecordChanged(judge);
    }

    /// @notice A judge voted (or revealed) on a case.
    /// @param judge The judge.
    function judgeVoted(address judge) external onlyCase {
        judges[judge].votesCast += 1;
        emit JudgeRecordChanged(judge);
    }

    /// @notice Ends a judge's service on a case; minority voters and no-shows are slashed.
    /// @param judge The judge.
    /// @param result How its vote compared with the final outcome.
    function judgeReleased(address judge, JudgeResult result) external onlyCase {
        Judge storage j = judges[judge];
        j.activeCases -= 1;
        if (result == JudgeResult.Majority) {
            j.majorityVotes += 1;
        } else if (result == JudgeResult.Minority) {
            j.minorityVotes += 1;
            _slash(judge, j);
        } else if (result == JudgeResult.NoShow) {
            j.noShows += 1;
            _slash(judge, j);
        }
        emit JudgeRecordChanged(judge);
    }

    /// @notice Receives a case's court fee: `each` to every listed judge's stake (in the first court
    /// it is staked in), the rest to the treasury.
    /// @param rewarded The judges who voted for the final outcome.
    /// @param each What each of them gets.
    function creditRewards(address[] calldata rewarded, uint256 each) external payable onlyCase {
        uint256 paid = each * rewarded.length;
        require(paid <= msg.value, "CourtRegistry: rewards exceed the fee sent");
        for (uint256 i = 0; i < rewarded.length; i++) {
            address who = rewarded[i];
            Judge storage j = judges[who];
            j.stake += uint88(each);
            j.rewards += uint128(each);
            // Into the first court the judge is staked in (the General court if none is left).
            if (j.courts == 0) {
                j.courts = uint32(GENERAL_COURT);
                if (j.listIndex == 0) _list(who, j);
            }
            uint96 into = _at(j.courts, 0);
            _setCourtStake(who, into, _stakeIn(who, into) + each);
            emit JudgeRewarded(rewarded[i], msg.sender, each);
            emit JudgeRecordChanged(rewarded[i]);
        }
        totalJudgeStake += uint128(paid);
        treasury += msg.value - paid;
    }

    /// @notice A case ended with a verdict (or a default): the parties' records, and the outcome hook.
    /// A party the case is not on record for (a dispute filed through the arbitrator that it never
    /// agreed to, see CaseFactory.onRecord) keeps its record as it was. A default is scored as a
    /// default, not a verdict: the loser's no-show counts (casesLost, noShows, REPUTATION_NO_SHOW),
    /// the winner's record does not change (no casesWon, no REPUTATION_WIN: nobody judged the claim).
    /// @param winner The party that won.
    /// @param loser The party that lost.
    /// @param noShow Whether the loser never answered (a default).
    function recordParties(address winner, address loser, bool noShow) external onlyCase {
        // [records] on-record filter and default scoring (issue #31, 3a/3b)
        bool winnerOn = _onRecord(winner);
        bool loserOn = _onRecord(loser);
        if (winnerOn && !noShow) {
            PartyRecord storage w = parties[winner];
            w.casesWon += 1;
            w.reputation += REPUTATION_WIN;
            emit PartyRecordChanged(winner);
        }
        if (loserOn) {
            PartyRecord storage l = parties[loser];
            l.casesLost += 1;
            if (noShow) {
                l.noShows += 1;
                l.reputation += REPUTATION_NO_SHOW;
            } else {
                l.reputation += REPUTATION_LOSS;
            }
            emit PartyRecordChanged(loser);
        }
        _tellOutcomeHook(winnerOn ? winner : address(0), loserOn ? loser : address(0), noShow ? 1 : 0);
    }

    /// @notice A case was dismissed with no verdict: no record changes, only the outcome hook hears it.
    /// @param plaintiff The plaintiff.
    /// @param defendant The defendant.
    function recordDismissal(address plaintiff, address defendant) external onlyCase {
        _tellOutcomeHook(
            _onRecord(plaintiff) ? plaintiff : address(0), _onRecord(defendant) ? defendant : address(0), 2
        );
    }

    /// @dev Whether the calling case goes on `party`'s record (the factory decided it at filing).
    function _onRecord(address party) private view returns (bool) {
        return ICaseRecord(factory).onRecord(msg.sender, party);
    }
    // [/records]

    // ------------------------------------------------------------------- owner

    /// @notice Sets (or, with zero, removes) the contract told how each case ends. An address with
    /// no code is refused: a call to it would revert outside any `try` and end no case.
    /// @param hook The hook (a contract), or zero for none.
    function setOutcomeHook(address hook) external {
        if (msg.sender != owner) revert OnlyOwner();
        if (hook != address(0) && hook.code.length == 0) revert HookHasNoCode(hook);
        outcomeHook = hook;
        emit OutcomeHookSet(hook);
    }

    /// @notice Pays `amount` of the treasury (court fees and slashes) to `to`; only the owner.
    /// @param to Who receives it.
    /// @param amount How much, at most the treasury.
    function withdrawTreasury(address to, uint256 amount) external {
        if (msg.sender != owner) revert OnlyOwner();
        if (amount > treasury) revert AmountExceedsTreasury(treasury);
        treasury -= amount;
        emit TreasuryWithdrawn(to, amount);
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }

    /// @notice The General court's minimum judge stake.
    /// @return The minimum.
    function minJudgeStake() external view returns (uint256) {
        return _minJudgeStake();
    }

    // ---------------------------------------------------------------- internal

    /// @dev The hook runs with a fixed gas allowance and its failure is only logged, so it can never
    /// block a case's end. The allowance must be there in full: otherwise a wallet's gas estimate
    /// could settle on a limit where the hook silently runs out. A hook with no code (yet, or any
    /// more) is skipped: Solidity's high-level call checks the code before the `try` can catch.
    function _tellOutcomeHook(address a, address b, uint8 kind) private {
        address hook = outcomeHook;
        if (hook == address(0)) return;
        if (hook.code.length == 0) {
            emit OutcomeHookFailed(msg.sender);
            return;
        }
        uint256 needed = OUTCOME_HOOK_GAS + OUTCOME_HOOK_GAS / 63 + 10_000;
        if (gasleft() < needed) revert NotEnoughGasForOutcomeHook(needed);
        try ICaseOutcomeHook(hook).recordOutcome{gas: OUTCOME_HOOK_GAS}(msg.sender, a, b, kind) {}
        catch {
            emit OutcomeHookFailed(msg.sender);
        }
    }

    /// @dev A stake in `courtId` counts in its pool and every pool above it: none of them may have a
    /// draw waiting (a judge who left between the arming and the draw would shrink the panel's pool).
    function _requireNoPendingDraw(uint96 courtId) private view {
        for (uint96 c = courtId; c != 0; c = courts[c].parent) {
            if (pendingDraws[c] != 0) revert DrawPendingInCourt(c);
        }
    }

    /// @dev Takes `slashBps` of each of the judge's court stakes (its whole stake, as before courts).
    function _slash(address judge, Judge storage j) private {
        uint256 amount = 0;
        for (uint256 list = j.courts; list != 0; list >>= 8) {
            uint96 c = uint96(list & 0xff);
            uint256 stake = _stakeIn(judge, c);
            uint256 cut = (stake * slashBps) / 10_000;
            if (cut == 0) continue;
            amount += cut;
            _setCourtStake(judge, c, stake - cut);
        }
        if (amount == 0) return;
        j.stake -= uint88(amount);
        j.slashed += uint128(amount);
        totalJudgeStake -= uint128(amount);
        treasury += amount;
        emit JudgeSlashed(judge, msg.sender, amount);
    }

    /// @dev Sets a judge's stake in one court, and moves what of it counts (the stake while at or
    /// above the court's minimum) in that court's pool and every pool above it: one slot of the
    /// judge's per court and the tree's path, nothing else.
    function _setCourtStake(address judge, uint96 courtId, uint256 stake) private {
        if (stake > type(uint96).max) revert InvalidParameter();
        uint256 s = seats[judge][courtId];
        uint256 old = s & COUNTS != 0 ? uint96(s >> 32) : 0;
        bool counts = stake >= courts[courtId].config.minJudgeStake;
        s = (s & ~(((uint256(1) << 97) - 1) << 31)) | (stake << 32) | (counts ? COUNTS : 0);
        seats[judge][courtId] = s;
        uint256 now_ = counts ? stake : 0;
        if (old == now_) return;
        for (uint96 c = courtId; c != GENERAL_COURT; c = courts[c].parent) {
            uint256 t = c == courtId ? s : seats[judge][c];
            uint256 before = t >> 128;
            uint256 after_ = before + now_ - old;
            uint256 leaf = pools[c].update(judge, t & LEAF_MASK, before, after_);
            seats[judge][c] = (after_ << 128) | (uint128(t) & ~LEAF_MASK) | leaf;
        }
        // The General court: the weight is all that counts of the judge's stakes (this one's new
        // value included), the leaf is in the judge's record.
        Judge storage j = judges[judge];
        uint256 total = _countedTotal(judge);
        j.generalLeaf = uint24(pools[GENERAL_COURT].update(judge, j.generalLeaf, total + old - now_, total));
    }

    /// @dev Takes the judge's stake in its `k`th court out of every pool and the list; returns it
    /// (the caller pays it and fixes the totals).
    function _leaveCourt(address judge, Judge storage j, uint256 k) private returns (uint256 amount) {
        uint256 list = j.courts;
        uint96 courtId = _at(list, k);
        amount = _stakeIn(judge, courtId);
        _setCourtStake(judge, courtId, 0);
        // The last court takes the place of the one left.
        uint256 last = _count(list) - 1;
        uint256 moved = _at(list, last);
        list &= ~(uint256(0xff) << (8 * last));
        if (k != last) list = (list & ~(uint256(0xff) << (8 * k))) | (moved << (8 * k));
        j.courts = uint32(list);
        emit JudgeUnstaked(judge, courtId, amount);
    }

    /// @dev Adds a court to the end of the judge's list.
    function _listAdd(Judge storage j, uint96 courtId) private {
        uint256 list = j.courts;
        uint256 n = _count(list);
        if (n == MAX_COURTS_PER_JUDGE) revert TooManyCourts(MAX_COURTS_PER_JUDGE);
        j.courts = uint32(list | (uint256(courtId) << (8 * n)));
    }

    /// @dev Puts a judge in `judgeAt`.
    function _list(address who, Judge storage j) private {
        uint256 n = judgeTotal;
        if (n == type(uint24).max) revert InvalidParameter();
        judgeAt[n] = who;
        judgeTotal = uint32(n + 1);
        j.listIndex = uint24(n + 1);
    }

    function _leafRange(SortitionTree.Tree storage pool, uint256 leaf, uint64 atBlock)
        private
        view
        returns (uint256 start, uint256 weight)
    {
        start = pool.prefixAt(leaf - 1, atBlock);
        weight = pool.prefixAt(leaf, atBlock) - start;
    }

    function _listed(address[] calldata list, address who) private pure returns (bool) {
        for (uint256 i = 0; i < list.length; i++) {
            if (list[i] == who) return true;
        }
        return false;
    }

    /// @dev One point on the line less the cuts, mapped back onto the whole line; its judge's
    /// range is cut so no later point can land on it.
    function _drawOne(SortitionTree.Tree storage pool, Cuts memory cuts, uint256 rnd, uint256 total, uint64 atBlock)
        private
        view
        returns (address)
    {
        uint256 p = rnd % (total - cuts.weight);
        for (uint256 k = 0; k < cuts.n && p >= cuts.start[k]; k++) {
            p += cuts.len[k];
        }
        (uint256 leaf, uint256 start) = pool.find(p, atBlock);
        _cut(cuts, start, pool.prefixAt(leaf, atBlock) - start);
        return pool.ownerAt(leaf, atBlock);
    }

    function _isCut(Cuts memory c, uint256 start) private pure returns (bool) {
        for (uint256 k = 0; k < c.n; k++) {
            if (c.start[k] == start) return true;
        }
        return false;
    }

    /// @dev Cuts [start, start + len) out of the line, keeping the cuts sorted by start.
    function _cut(Cuts memory c, uint256 start, uint256 len) private pure {
        uint256 k = c.n;
        while (k > 0 && c.start[k - 1] > start) {
            c.start[k] = c.start[k - 1];
            c.len[k] = c.len[k - 1];
            k--;
        }
        c.start[k] = start;
        c.len[k] = len;
        c.n += 1;
        c.weight += len;
    }

    function _leavePool(address judge) private {
        Judge storage j = judges[judge];
        uint256 idxPlusOne = j.listIndex;
        // Already out: a judge who unstaked can hold stake again, a reward credited at a later settle.
        if (idxPlusOne == 0) return;
        uint256 n = judgeTotal - 1;
        address last = judgeAt[n];
        judgeAt[idxPlusOne - 1] = last;
        judges[last].listIndex = uint24(idxPlusOne);
        delete judgeAt[n];
        judgeTotal = uint32(n);
        j.listIndex = 0;
    }
}
