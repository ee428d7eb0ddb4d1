// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CourtConfig, CourtView} from "../interfaces/CourtTypes.sol";
import {Paging} from "../libraries/Paging.sol";
import {RegistryBase} from "./RegistryBase.sol";
import {SortitionTree} from "./SortitionTree.sol";

/// @title Court administration and the registry's paged reads.
/// @notice CourtRegistry's second half: it holds no state and is reached only through the registry,
/// whose fallback runs this code on the registry's storage (delegatecall), so each function below is
/// called at the registry's address, with its storage, its owner and its events. Called directly it
/// sees empty storage (no owner, no courts) and can change nothing. The split keeps each half under
/// the 24,576-byte code limit; the hot paths (stakes, draws, case callbacks) stay in the registry.
contract RegistryBook is RegistryBase {
    using SortitionTree for SortitionTree.Tree;

    // ------------------------------------------------------------------ courts

    /// @notice Creates a court below `parent`; only the owner.
    /// @param parent The court above it (the General court is 1).
    /// @param name Its name (1 to 64 bytes).
    /// @param policy The CID of its policy document (1 to 128 bytes; only the length is checked).
    /// @param config Its minimum judge stake (at least the parent's), jump panel size and case terms.
    /// @return courtId The new court's id.
    function createCourt(uint96 parent, string calldata name, string calldata policy, CourtConfig calldata config)
        external
        returns (uint96 courtId)
    {
        if (msg.sender != owner) revert OnlyOwner();
        _court(parent);
        return _createCourt(parent, name, policy, config);
    }

    /// @notice Changes a court's name, policy and parameters; only the owner. Cases already filed
    /// keep the terms they copied; stakes already placed count as long as they reach the new minimum.
    /// @param courtId The court.
    /// @param name Its name (1 to 64 bytes).
    /// @param policy The CID of its policy document (1 to 128 bytes).
    /// @param config Its minimum judge stake (between the parent's and every child's), jump panel size and case terms.
    function setCourt(uint96 courtId, string calldata name, string calldata policy, CourtConfig calldata config)
        external
    {
        if (msg.sender != owner) revert OnlyOwner();
        Court storage c = _court(courtId);
        _checkCourt(c.parent, name, policy, config);
        for (uint256 i = 0; i < c.children.length; i++) {
            if (courts[c.children[i]].config.minJudgeStake < config.minJudgeStake) revert InvalidParameter();
        }
        c.name = name;
        c.policy = policy;
        c.config = config;
        emit CourtChanged(courtId, name, policy, config);
    }

    /// @notice One court, with its pool now.
    /// @param courtId The court.
    /// @return exists False for an id that is no court.
    /// @return v The court.
    function getCourt(uint96 courtId) public view returns (bool exists, CourtView memory v) {
        if (courtId == 0 || courtId > courtCount) return (false, v);
        Court storage c = courts[courtId];
        v.id = courtId;
        v.parent = c.parent;
        v.depth = c.depth;
        v.name = c.name;
        v.policy = c.policy;
        v.config = c.config;
        v.children = c.children;
        v.judgeCount = pools[courtId].members();
        v.totalStake = pools[courtId].latestTotal();
        return (true, v);
    }

    /// @notice How a court's draw tree is used: leaves handed out so far (the highest leaf number;
    /// a departed judge's leaf goes to the next new judge, so churn never raises it) and judges in it now.
    /// @param courtId The court.
    /// @return leaves Leaves handed out, at most 65,536.
    /// @return members Judges with a weight in the court now.
    function poolLeaves(uint96 courtId) external view returns (uint256 leaves, uint256 members) {
        SortitionTree.Tree storage pool = pools[courtId];
        return (pool.leaves(), pool.members());
    }

    /// @notice How many judges a draw in `courtId` could seat now, leaving out `a` and `b` (a case's
    /// parties, never drawn): judges with a weight in the court's pool.
    /// @param courtId The court.
    /// @param a One party.
    /// @param b The other.
    /// @return n The judges beyond the parties.
    function seatableJudges(uint96 courtId, address a, address b) external view returns (uint256 n) {
        n = pools[courtId].members();
        if (n != 0 && _weightIn(a, courtId) != 0) n -= 1;
        if (n != 0 && b != a && _weightIn(b, courtId) != 0) n -= 1;
    }

    /// @notice The court whose waiting draw keeps `judge` from leaving now (its stake counts there),
    /// or 0 when none does (issue #31: see DrawPendingInCourt).
    /// @param judge The judge.
    /// @return courtId The court, or 0.
    function drawHolding(address judge) external view returns (uint96 courtId) {
        for (uint256 list = judges[judge].courts; list != 0; list >>= 8) {
            for (uint96 c = uint96(list & 0xff); c != 0; c = courts[c].parent) {
                if (pendingDraws[c] != 0) return c;
            }
        }
    }

    /// @notice Every court, in id order (at most MAX_COURTS).
    /// @return out The courts.
    function getCourts() external view returns (CourtView[] memory out) {
        out = new CourtView[](courtCount);
        for (uint96 i = 0; i < courtCount; i++) {
            (, out[i]) = getCourt(i + 1);
        }
    }

    /// @notice The courts a judge has a stake in, and its stake in each.
    /// @param judge The judge.
    /// @return courtIds The courts.
    /// @return stakes The stake in each.
    function getJudgeCourts(address judge) external view returns (uint96[] memory courtIds, uint256[] memory stakes) {
        uint256 list = judges[judge].courts;
        uint256 n = _count(list);
        courtIds = new uint96[](n);
        stakes = new uint256[](n);
        for (uint256 i = 0; i < n; i++) {
            courtIds[i] = _at(list, i);
            stakes[i] = _stakeIn(judge, courtIds[i]);
        }
    }

    /// @notice Whether `judge` can be drawn in the General court now.
    /// @param judge The judge.
    /// @return True when a stake of its, in any court, reaches that court's minimum.
    function isEligibleJudge(address judge) external view returns (bool) {
        return _eligibleIn(judge, GENERAL_COURT);
    }

    /// @notice A page of a court's draw pool, in tree-leaf order: who holds each leaf now and its
    /// weight there (its counted stakes in the court and below). Bounded by `limit`, unlike a scan
    /// of every judge; a free leaf shows the zero address.
    /// @param courtId The court.
    /// @param offset The first leaf, from 0.
    /// @param limit At most this many leaves.
    /// @return leaves Leaves handed out in the court (the page's total).
    /// @return judges Each leaf's judge (zero: free).
    /// @return weights Each judge's weight in the court now.
    function getCourtJudges(uint96 courtId, uint256 offset, uint256 limit)
        external
        view
        returns (uint256 leaves, address[] memory judges, uint256[] memory weights)
    {
        SortitionTree.Tree storage pool = pools[courtId];
        leaves = pool.leaves();
        uint256 n = Paging.length(leaves, offset, limit);
        judges = new address[](n);
        weights = new uint256[](n);
        for (uint256 i = 0; i < n; i++) {
            address who = pool.ownerAt(offset + i + 1, type(uint64).max);
            if (who != address(0) && _leafIn(who, courtId) == offset + i + 1) {
                judges[i] = who;
                weights[i] = _weightIn(who, courtId);
            }
        }
    }

    // ------------------------------------------------------------------- views

    /// @notice One address's agent registration, party record and judge stake (registered or not).
    /// @param who The address.
    /// @return v Its view.
    function getAgent(address who) public view returns (AgentView memory v) {
        Agent storage a = agents[who];
        PartyRecord storage p = parties[who];
        v.addr = who;
        v.registered = a.agentId != 0;
        v.agentId = a.agentId;
        v.name = a.name;
        v.metadataURI = a.metadataURI;
        v.registeredAt = a.registeredAt;
        v.reputation = p.reputation;
        v.casesWon = p.casesWon;
        v.casesLost = p.casesLost;
        v.noShows = p.noShows;
        v.judgeStake = judges[who].stake;
        v.isJudge = _eligibleIn(who, GENERAL_COURT);
    }

    /// @notice A page of agents in registration order, with the total.
    /// @param offset The first agent, from 0.
    /// @param limit At most this many.
    /// @return total Agents registered.
    /// @return page The page's agents.
    function getAgents(uint256 offset, uint256 limit) external view returns (uint256 total, AgentView[] memory page) {
        total = agentList.length;
        uint256 n = Paging.length(total, offset, limit);
        page = new AgentView[](n);
        for (uint256 i = 0; i < n; i++) {
            page[i] = getAgent(agentList[offset + i]);
        }
    }

    /// @notice One judge's record and its stake in all courts together.
    /// @param who The judge.
    /// @return v Its record; `eligible` is for the General court.
    function getJudge(address who) public view returns (JudgeView memory v) {
        Judge storage j = judges[who];
        v.addr = who;
        v.stake = j.stake;
        v.eligible = _eligibleIn(who, GENERAL_COURT);
        v.rewards = j.rewards;
        v.slashed = j.slashed;
        v.votesCast = j.votesCast;
        v.majorityVotes = j.majorityVotes;
        v.minorityVotes = j.minorityVotes;
        v.noShows = j.noShows;
        v.activeCases = j.activeCases;
        v.totalAssigned = j.totalAssigned;
        v.stakedAt = j.stakedAt;
    }

    /// @notice A page of the judges (staked and not unstaked, eligible or not), in list order, with
    /// the total: a call's gas grows with `limit`, never with the pool (about 12k gas a judge).
    /// @param offset The first judge, from 0.
    /// @param limit At most this many judges.
    /// @return minimumStake The General court's minimum judge stake.
    /// @return total Judges in the list.
    /// @return pool The page's judges' records.
    function getJudgePool(uint256 offset, uint256 limit)
        external
        view
        returns (uint256 minimumStake, uint256 total, JudgeView[] memory pool)
    {
        minimumStake = _minJudgeStake();
        total = judgeTotal;
        uint256 n = Paging.length(total, offset, limit);
        pool = new JudgeView[](n);
        for (uint256 i = 0; i < n; i++) {
            pool[i] = getJudge(judgeAt[offset + i]);
        }
    }

    /// @notice The registry's counts and money, in one bounded call.
    /// @return o Agents, judges (`eligibleJudgeCount`: the General court's), stakes, treasury, the General minimum.
    function getOverview() external view returns (Overview memory o) {
        o.agentCount = agentList.length;
        o.judgeCount = judgeTotal;
        o.eligibleJudgeCount = pools[GENERAL_COURT].members();
        o.totalJudgeStake = totalJudgeStake;
        o.treasury = treasury;
        o.minJudgeStake = _minJudgeStake();
        o.slashBps = slashBps;
    }

    /// @notice How many agents registered.
    /// @return The count.
    function agentCount() external view returns (uint256) {
        return agentList.length;
    }
}
