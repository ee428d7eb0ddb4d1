// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {DisputeCase} from "../case/DisputeCase.sol";
import {CaseIndex} from "./CaseIndex.sol";
import {FactoryBase} from "./FactoryBase.sol";

/// @title Seating a case's judges: the armed draw executed by anyone, or a panel the owner names.
/// @notice Hand-seating (`assignJudges`) exists only on a factory deployed with `manualSeating` (dev
/// and test chains); elsewhere every panel is drawn. Either way the seated panel joins the index of
/// the cases its judges take part in.
abstract contract JudgeSeating is FactoryBase, CaseIndex {
    /// @notice This factory seats no judge by hand (it was deployed without `manualSeating`): panels are drawn.
    error ManualSeatingOff();

    /// @notice Whether the owner may seat a panel by hand (`assignJudges`): only on a factory
    /// deployed for a dev or test chain; fixed at deployment.
    /// @return True on a dev or test deployment.
    bool public immutable manualSeating;

    /// @param manualSeating_ Whether the owner may seat panels by hand (dev and test chains only).
    constructor(bool manualSeating_) {
        manualSeating = manualSeating_;
    }

    /// @notice Executes the case's armed draw (stake-weighted, from the entropy source). Anyone may
    /// call it (a keeper); the caller chooses nothing about the panel. An expired draw re-arms instead.
    /// @param caseAddr The case.
    function assignJudgesRandom(address caseAddr) external {
        DisputeCase(_known(caseAddr)).drawJudges();
        _involvePanel(DisputeCase(caseAddr));
    }

    /// @notice The owner's manual override: seats the given judges; only on a factory deployed with
    /// `manualSeating` (dev and test chains), elsewhere refused for every case.
    /// @param caseAddr The case.
    /// @param judges The panel: the round's panel size of judges eligible in its court, no party, none twice,
    /// on appeal none of the first round.
    function assignJudges(address caseAddr, address[] calldata judges) external onlyOwner {
        if (!manualSeating) revert ManualSeatingOff();
        DisputeCase(_known(caseAddr)).setJudges(judges);
        _involvePanel(DisputeCase(caseAddr));
    }
}
