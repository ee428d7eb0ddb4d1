// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CaseState, CaseView, CaseSummary, CaseStatus} from "../interfaces/CourtTypes.sol";
import {ICaseFactory} from "../interfaces/ICaseFactory.sol";
import {DisputeCase} from "../case/DisputeCase.sol";
import {Paging} from "../libraries/Paging.sol";

/// @title The CaseFactory's index of its cases: the gateway's single place to read cases from.
/// @notice Every case filed, the open ones, the ones deliberating and each address's open cases,
/// kept exact by the cases themselves (each reports every change of state, `onCaseChanged`), with
/// the paged views over them and the whole case in one call.
abstract contract CaseIndex is ICaseFactory {
    /// @notice Only a case this factory filed may do this.
    error OnlyCase();
    /// @notice The address is not a case this factory filed.
    /// @param caseAddr The address given.
    error UnknownCase(address caseAddr);

    /// @notice Emitted on every change to any case, so one log filter follows them all.
    /// @param caseAddr The case.
    /// @param state Its state now.
    event CaseChanged(address indexed caseAddr, CaseState state);

    address[] internal cases;
    /// @notice Whether an address is a case this factory filed.
    /// @return True for a case.
    mapping(address => bool) public isCase;
    uint256[8] internal countByState;
    /// @dev Cases that can still change (not defaulted, dismissed or settled), enumerable.
    address[] internal openCases;
    mapping(address => uint256) private openIndexPlusOne;
    /// @dev Cases whose judges are voting right now: what validators look for, kept apart so that
    /// listing them costs nothing for the many cases in other states.
    address[] private deliberating;
    mapping(address => uint256) private deliberatingIndexPlusOne;
    /// @dev The open cases each address takes part in, as plaintiff, defendant or a seated judge of
    /// any round: what an inbox pages through. One enumerable set per address (at most 2 parties and
    /// 3 + 5 judges per case), each case leaving every participant's set when it leaves `openCases`.
    mapping(address => address[]) private involved;
    mapping(address => mapping(address => uint256)) private involvedIndexPlusOne;

    /// @notice Cases report every change here: counts stay exact and one event follows them all.
    /// @param from The state the calling case left.
    /// @param to The state it is in now.
    function onCaseChanged(CaseState from, CaseState to) external {
        if (!isCase[msg.sender]) revert OnlyCase();
        if (from != to) {
            countByState[uint256(from)] -= 1;
            countByState[uint256(to)] += 1;
            if (to == CaseState.Deliberating) _setAdd(deliberating, deliberatingIndexPlusOne, msg.sender);
            if (from == CaseState.Deliberating) _setRemove(deliberating, deliberatingIndexPlusOne, msg.sender);
        }
        if (to == CaseState.Defaulted || to == CaseState.Dismissed) _close(msg.sender);
        else if (to == CaseState.Resolved && DisputeCase(msg.sender).settled()) _close(msg.sender);
        emit CaseChanged(msg.sender, to);
    }

    /// @notice The whole case in one call; `exists` is false for an address that is not a case.
    /// @param caseAddr The case.
    /// @return exists False for an address that is not a case.
    /// @return view_ The case: parties, stakes, state, deadlines, panel, votes, court.
    function getCase(address caseAddr) external view returns (bool exists, CaseView memory view_) {
        if (!isCase[caseAddr]) return (false, view_);
        return (true, DisputeCase(caseAddr).getCase());
    }

    /// @notice The whole case and the evidence its parties added, in one call (what a judge reads).
    /// @param caseAddr The case.
    /// @return exists False for an address that is not a case (then nothing else is read).
    /// @return view_ The case, as `getCase` gives it.
    /// @return items The evidence added after filing, oldest first.
    function getCaseEvidence(address caseAddr)
        external
        view
        returns (bool exists, CaseView memory view_, DisputeCase.Evidence[] memory items)
    {
        if (!isCase[caseAddr]) return (false, view_, items);
        return (true, DisputeCase(caseAddr).getCase(), DisputeCase(caseAddr).getEvidence());
    }

    /// @notice A page of case addresses in filing order, with the total.
    /// @param offset The first case, from 0.
    /// @param limit At most this many.
    /// @return total Cases filed.
    /// @return page The page's cases.
    function getCases(uint256 offset, uint256 limit) external view returns (uint256 total, address[] memory page) {
        total = cases.length;
        uint256 n = Paging.length(total, offset, limit);
        page = new address[](n);
        for (uint256 i = 0; i < n; i++) {
            page[i] = cases[offset + i];
        }
    }

    /// @notice A page of the cases that can still change, with their total: the summaries of the open
    /// cases at [offset, offset + limit) that are in `state` (all of them unless `filterByState`), so a
    /// page reads at most `limit` cases. Unordered, as `getCaseStatuses`: a case that closes is swapped
    /// out for the last one, so a page walk during changes can skip or repeat one.
    /// @param filterByState Whether to keep only cases in `state`.
    /// @param state The state to keep (ignored unless `filterByState`).
    /// @param offset The first open case, from 0.
    /// @param limit At most this many open cases read.
    /// @return total Open cases (all states).
    /// @return page The summaries of the page's cases that matched.
    function getOpenCases(bool filterByState, CaseState state, uint256 offset, uint256 limit)
        external
        view
        returns (uint256 total, CaseSummary[] memory page)
    {
        total = openCases.length;
        uint256 n = Paging.length(total, offset, limit);
        page = new CaseSummary[](n);
        uint256 k = 0;
        for (uint256 i = 0; i < n; i++) {
            DisputeCase c = DisputeCase(openCases[offset + i]);
            if (filterByState && c.state() != state) continue;
            page[k++] = c.getSummary();
        }
        assembly {
            mstore(page, k)
        }
    }

    /// @notice A page of the cases in Deliberating (judges voting), with their total.
    /// @param offset The first case, from 0.
    /// @param limit At most this many.
    /// @return total Cases deliberating.
    /// @return page The page's summaries.
    function getDeliberatingCases(uint256 offset, uint256 limit)
        external
        view
        returns (uint256 total, CaseSummary[] memory page)
    {
        total = deliberating.length;
        uint256 n = Paging.length(total, offset, limit);
        page = new CaseSummary[](n);
        for (uint256 i = 0; i < n; i++) {
            page[i] = DisputeCase(deliberating[offset + i]).getSummary();
        }
    }

    /// @notice A page of what decides who may act now on the open cases `who` takes part in (as a
    /// party, or a judge of either round), with their total and the chain time it was read at.
    /// The set is unordered: a case that closes is swapped out for the last one, so a walk over
    /// pages while cases close can skip or repeat a case; compare `total` between pages.
    /// @param who The party or judge.
    /// @param offset The first case, from 0.
    /// @param limit At most this many.
    /// @return total Open cases `who` takes part in.
    /// @return chainTime The block timestamp the page was read at.
    /// @return page The page's statuses.
    function getInvolvedCases(address who, uint256 offset, uint256 limit)
        external
        view
        returns (uint256 total, uint64 chainTime, CaseStatus[] memory page)
    {
        return _statusPage(involved[who], offset, limit);
    }

    /// @notice A page of the statuses of every open case (what a keeper looks through for steps anyone
    /// may take), with their total and the chain time. Unordered, as `getInvolvedCases`: a case
    /// that closes is swapped out for the last one, so a page walk during changes can skip or repeat one.
    /// @param offset The first open case, from 0.
    /// @param limit At most this many.
    /// @return total Open cases.
    /// @return chainTime The block timestamp the page was read at.
    /// @return page The page's statuses.
    function getCaseStatuses(uint256 offset, uint256 limit)
        external
        view
        returns (uint256 total, uint64 chainTime, CaseStatus[] memory page)
    {
        return _statusPage(openCases, offset, limit);
    }

    /// @notice How many open cases `who` takes part in: `getInvolvedCases`'s total.
    /// @param who The party or judge.
    /// @return The count.
    function involvedCount(address who) external view returns (uint256) {
        return involved[who].length;
    }

    /// @notice How many cases were filed.
    /// @return The count.
    function caseCount() external view returns (uint256) {
        return cases.length;
    }

    /// @dev A new case joins every index: filed, open and Summoned, in its parties' sets.
    function _index(address caseAddr, address plaintiff, address defendant) internal {
        isCase[caseAddr] = true;
        cases.push(caseAddr);
        _setAdd(openCases, openIndexPlusOne, caseAddr);
        _setAdd(involved[plaintiff], involvedIndexPlusOne[plaintiff], caseAddr);
        _setAdd(involved[defendant], involvedIndexPlusOne[defendant], caseAddr);
        countByState[uint256(CaseState.Summoned)] += 1;
    }

    function _known(address caseAddr) internal view returns (address) {
        if (!isCase[caseAddr]) revert UnknownCase(caseAddr);
        return caseAddr;
    }

    /// @dev After a draw or a manual seating: the current round's panel, if one was seated (an
    /// expired draw re-arms instead and seats nobody), joins the index of involved cases.
    function _involvePanel(DisputeCase d) internal {
        (address[] memory judges,) = d.getPanel(d.round());
        for (uint256 i = 0; i < judges.length; i++) {
            _setAdd(involved[judges[i]], involvedIndexPlusOne[judges[i]], address(d));
        }
    }

    /// @dev The case is final and has left every index; what else must follow (the arbitrator that
    /// filed it told) is the factory's.
    function _closed(address c) internal virtual;

    /// @dev The case can no longer change: it leaves the open set and every participant's index.
    function _close(address c) private {
        if (openIndexPlusOne[c] == 0) return;
        _setRemove(openCases, openIndexPlusOne, c);
        DisputeCase d = DisputeCase(c);
        address p = d.plaintiff();
        address def = d.defendant();
        _setRemove(involved[p], involvedIndexPlusOne[p], c);
        _setRemove(involved[def], involvedIndexPlusOne[def], c);
        uint8 rounds = d.round();
        for (uint8 r = 1; r <= rounds; r++) {
            (address[] memory judges,) = d.getPanel(r);
            for (uint256 i = 0; i < judges.length; i++) {
                _setRemove(involved[judges[i]], involvedIndexPlusOne[judges[i]], c);
            }
        }
        _closed(c);
    }

    function _statusPage(address[] storage list, uint256 offset, uint256 limit)
        private
        view
        returns (uint256 total, uint64 chainTime, CaseStatus[] memory page)
    {
        total = list.length;
        chainTime = uint64(block.timestamp);
        uint256 n = Paging.length(total, offset, limit);
        page = new CaseStatus[](n);
        for (uint256 i = 0; i < n; i++) {
            page[i] = DisputeCase(list[offset + i]).getStatus();
        }
    }

    /// @dev An enumerable set: the list and each member's index + 1 (0 = not a member).
    function _setAdd(address[] storage list, mapping(address => uint256) storage indexPlusOne, address c) private {
        if (indexPlusOne[c] != 0) return;
        list.push(c);
        indexPlusOne[c] = list.length;
    }

    function _setRemove(address[] storage list, mapping(address => uint256) storage indexPlusOne, address c) private {
        uint256 idxPlusOne = indexPlusOne[c];
        if (idxPlusOne == 0) return;
        address last = list[list.length - 1];
        list[idxPlusOne - 1] = last;
        indexPlusOne[last] = idxPlusOne;
        list.pop();
        indexPlusOne[c] = 0;
    }
}
